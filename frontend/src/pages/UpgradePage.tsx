/**
 * /upgrade, the pricing page (docs/product/payments.md PAY1-PAY2): the three plans, the
 * 30-day money-back guarantee and cancel-anytime. Choosing a paid plan signed in makes a Stripe Checkout session
 * (lib/payments.ts) and sends the browser there; signed out, the choice is kept as pendingUpgrade and the user signs
 * in first (/login?redirect=/upgrade&plan=...), after which the login page continues to checkout.
 */
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { PaidPlan, Tier } from '@ephemera/proto/client';
import { SiteNav } from '../components/SiteNav.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { AppLink } from '../components/AppLink.tsx';
import { readAccount } from '../lib/account.ts';
import { PAYMENT_TEXT } from '../lib/paymentTexts.ts';
import { parsePlan } from '../lib/paymentPlans.ts';
import { PENDING_UPGRADE_KEY, readPendingUpgrade } from '../lib/pendingPayments.ts';
import { startCheckout } from '../lib/payments.ts';
import { t as translate, useCatalog, useT, type MessageId } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';
import { cancelAnytime, moneyBack, pricingFeatures, priceOfTierAlone, tierName } from '../lib/planCopy.ts';
import './accounts.css';
import './payments.css';

const PLANS: Tier[] = ['free', 'pro', 'business'];
const TAGLINES: Record<Tier, MessageId> = {
  free: 'account.pricing.tagline.free',
  pro: 'account.pricing.tagline.pro',
  business: 'account.pricing.tagline.business',
};

export function UpgradePage() {
  useCatalog('account');
  const t = useT();
  const [params] = useSearchParams();
  const account = readAccount();
  const currentTier = account?.user.subscriptionTier ?? null;
  const [selected, setSelected] = useState<PaidPlan | null>(
    () => parsePlan(params.get('plan')) ?? readPendingUpgrade()?.plan ?? null,
  );
  const [busy, setBusy] = useState<PaidPlan | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    document.title = translate('account.pricing.documentTitle');
    // signed in, a kept choice has done its job (it only carries a plan across a sign-in)
    if (account)
      try {
        localStorage.removeItem(PENDING_UPGRADE_KEY);
      } catch {
        /* ignore */
      }
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const choose = async (plan: PaidPlan | null) => {
    if (busy) return;
    setError(null);
    setSelected(plan);
    setBusy(plan);
    const r = await startCheckout(plan);
    if (r.kind === 'error') {
      setBusy(null);
      setError(
        r.message === PAYMENT_TEXT.selectPlan
          ? t('account.payment.selectPlan')
          : t('account.payment.error', { message: errorText(null, r.message) }),
      );
    }
    // redirect / login: the browser is leaving; the button keeps saying so
  };

  return (
    <div className="landing">
      <SiteNav />
      <main className="account-page pricing-page" data-testid="pricing-page">
        <header className="pricing-head">
          <h1>{t('account.pricing.title')}</h1>
          <p>{t('account.pricing.lead')}</p>
          {account && (
            <p data-testid="pricing-account">{t('account.pricing.signedInAs', { email: account.user.email })}</p>
          )}
        </header>
        {error && (
          <p className="account-error center" role="alert" data-testid="pricing-error">
            {error}
          </p>
        )}
        <div className="plan-grid">
          {PLANS.map((tier) => {
            const paid = tier === 'free' ? null : tier;
            const current = currentTier === tier;
            return (
              <section
                key={tier}
                className={`account-card plan-card plan-${tier}${paid && selected === paid ? ' selected' : ''}`}
                aria-labelledby={`plan-${tier}-title`}
                data-testid={`plan-${tier}`}
              >
                <div>
                  {tier === 'pro' && <span className="plan-badge">{t('account.pricing.popular')}</span>}
                  <h2 id={`plan-${tier}-title`}>{tierName(tier)}</h2>
                  <p className="payment-small">{t(TAGLINES[tier])}</p>
                </div>
                <p className="plan-price" data-testid={`plan-${tier}-price`}>
                  {priceOfTierAlone(tier)}
                  <span>{tier === 'free' ? t('account.pricing.forever') : t('account.pricing.perMonth')}</span>
                </p>
                <ul className="check-list">
                  {pricingFeatures(tier).map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                {!paid ? (
                  <AppLink href="/" className="button button-ghost button-block">
                    {current ? t('account.pricing.current') : t('account.pricing.startFree')}
                  </AppLink>
                ) : (
                  <button
                    type="button"
                    className="button button-primary button-block"
                    disabled={busy !== null || current}
                    onClick={() => void choose(paid)}
                    data-testid={`choose-${paid}`}
                  >
                    {current
                      ? t('account.pricing.current')
                      : busy === paid
                        ? t('account.pricing.redirecting')
                        : t('account.payment.upgradeTo', { plan: tierName(paid) })}
                  </button>
                )}
              </section>
            );
          })}
        </div>
        <p className="pricing-guarantees" data-testid="pricing-guarantees">
          <span>✓ {moneyBack()}</span>
          <span>✓ {cancelAnytime()}</span>
        </p>
        {account && (
          <p className="center">
            <AppLink href="/subscription" className="text-link">
              {t('account.pricing.manage')}
            </AppLink>
          </p>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}
