/** /terms: the terms of service (a static page, docs/product/accounts.md A14): temporary rooms, acceptable use, plans and refunds. */
import { AppLink } from '../components/AppLink.tsx';
import { PLAN_GUARANTEES, PLAN_PRICES } from '@ephemera/proto/client';
import { formatDollars } from '../lib/planComparison.ts';
import { StaticPage, StaticSection } from './StaticPage.tsx';

export function TermsPage() {
  const pro = formatDollars(PLAN_PRICES.pro.amountCents);
  const business = formatDollars(PLAN_PRICES.business.amountCents);
  return (
    <StaticPage
      title="Terms of Service"
      description="The terms for using Ephemera's temporary chat rooms and paid plans: rooms and their content are deleted when they expire, acceptable use, billing, cancellation and refunds."
      heading="Terms of Service"
      lead="By creating or joining a room, or by creating an account, you agree to these terms. They are short on purpose."
      testId="terms-page"
    >
      <StaticSection id="service" title="1. The service">
        <p>
          Ephemera provides temporary chat rooms that anyone with the link can join with a username. Rooms expire: a
          free room after 24 hours, a Pro room after up to 7 days; Business rooms last until they are deleted. When a
          room expires or is deleted, its messages, files and members are deleted for good and cannot be recovered, by
          you or by us. Keep a copy of anything you need to keep.
        </p>
      </StaticSection>

      <StaticSection id="eligibility" title="2. Who may use it">
        <p>
          You must be at least 13 years old. If you use Ephemera for an organisation, you confirm that you may accept
          these terms for it. You are responsible for your account and for keeping your sign-in e-mail secure, and a
          room's owner is responsible for who they share the room's link and password with.
        </p>
      </StaticSection>

      <StaticSection id="use" title="3. Acceptable use">
        <p>Do not use Ephemera to:</p>
        <ul>
          <li>share content that is illegal, or that exploits or endangers children;</li>
          <li>harass, threaten or impersonate others, or share someone's private information without their consent;</li>
          <li>send spam or malware, or phish for credentials;</li>
          <li>infringe others' intellectual property;</li>
          <li>
            attack, overload or probe the service, get around its limits, or access rooms you were not invited to.
          </li>
        </ul>
        <p>
          Room owners and admins may remove members from their rooms. We may delete a room or close an account that
          breaks these rules, and we cooperate with lawful requests from authorities, within what we can technically
          provide: content of rooms that have ended no longer exists.
        </p>
      </StaticSection>

      <StaticSection id="content" title="4. Your content">
        <p>
          What you post stays yours. You give us only the permission we need to store it, encrypted, and deliver it to
          the people in the room for as long as the room exists. Our{' '}
          <AppLink href="/privacy" className="text-link">
            Privacy Policy
          </AppLink>{' '}
          explains what we keep and how it is deleted.
        </p>
      </StaticSection>

      <StaticSection id="plans" title="5. Plans, payment and refunds">
        <ul>
          <li>
            Free costs nothing. Pro is {pro} a month and Business {business} a month, billed monthly through Stripe
            until you cancel.
          </li>
          <li>
            {PLAN_GUARANTEES.cancelAnytime ? 'You can cancel anytime from the subscription page; ' : ''}your plan stays
            active until the end of the period you paid for.
          </li>
          <li>
            New subscriptions come with a {PLAN_GUARANTEES.moneyBackDays}-day money-back guarantee:{' '}
            <AppLink href="/contact" className="text-link">
              contact us
            </AppLink>{' '}
            within {PLAN_GUARANTEES.moneyBackDays} days of your first payment for a full refund.
          </li>
          <li>Room extensions for free rooms are one-time payments for the days you chose.</li>
          <li>
            If a renewal payment fails, your plan stays while the payment is retried and for a 7-day grace period after
            it ends; then your account and its rooms return to the free plan.
          </li>
        </ul>
      </StaticSection>

      <StaticSection id="availability" title="6. Availability and liability">
        <p>
          We work to keep Ephemera fast and available, but it is provided "as is", without warranties of any kind. Do
          not rely on it as the only copy of anything important: rooms are temporary by design. To the extent the law
          allows, we are not liable for indirect or consequential losses, and our total liability is limited to what you
          paid us in the twelve months before the claim.
        </p>
      </StaticSection>

      <StaticSection id="changes" title="7. Changes">
        <p>
          We may update these terms; the current version is always on this page. If a change matters for paying
          customers, we will tell them before it applies. Continuing to use Ephemera after a change means you accept it.
        </p>
      </StaticSection>
    </StaticPage>
  );
}
