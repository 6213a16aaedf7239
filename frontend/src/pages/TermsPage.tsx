/** /terms: the terms of service (a static page, docs/product/accounts.md A14): temporary rooms, acceptable use, plans and refunds. */
import { AppLink } from '../components/AppLink.tsx';
import { PLAN_GUARANTEES, PLAN_PRICES } from '@ephemera/proto/client';
import { formatDollars } from '../lib/planComparison.ts';
import { useT, type MessageId } from '../i18n/i18n.ts';
import { Trans } from '../i18n/Trans.tsx';
import { StaticPage, StaticSection } from './StaticPage.tsx';

const FORBIDDEN: MessageId[] = [
  'public.terms.use.illegal',
  'public.terms.use.harass',
  'public.terms.use.spam',
  'public.terms.use.ip',
  'public.terms.use.attack',
];

export function TermsPage() {
  const t = useT();
  const pro = formatDollars(PLAN_PRICES.pro.amountCents);
  const business = formatDollars(PLAN_PRICES.business.amountCents);
  const days = PLAN_GUARANTEES.moneyBackDays;
  return (
    <StaticPage
      title={t('public.terms.title')}
      description={t('public.terms.description')}
      heading={t('public.terms.title')}
      lead={t('public.terms.lead')}
      testId="terms-page"
    >
      <StaticSection id="service" title={t('public.terms.service.title')}>
        <p>{t('public.terms.service.p1')}</p>
      </StaticSection>

      <StaticSection id="eligibility" title={t('public.terms.eligibility.title')}>
        <p>{t('public.terms.eligibility.p1')}</p>
      </StaticSection>

      <StaticSection id="use" title={t('public.terms.use.title')}>
        <p>{t('public.terms.use.intro')}</p>
        <ul>
          {FORBIDDEN.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
        <p>{t('public.terms.use.enforcement')}</p>
      </StaticSection>

      <StaticSection id="content" title={t('public.terms.content.title')}>
        <p>
          <Trans id="public.terms.content.p1" components={{ 0: <AppLink href="/privacy" className="text-link" /> }} />
        </p>
      </StaticSection>

      <StaticSection id="plans" title={t('public.terms.plans.title')}>
        <ul>
          <li>{t('public.terms.plans.prices', { pro, business })}</li>
          <li>
            {t(PLAN_GUARANTEES.cancelAnytime ? 'public.terms.plans.cancelAnytime' : 'public.terms.plans.periodEnd')}
          </li>
          <li>
            <Trans
              id="public.terms.plans.moneyBack"
              values={{ days }}
              components={{ 0: <AppLink href="/contact" className="text-link" /> }}
            />
          </li>
          <li>{t('public.terms.plans.extensions')}</li>
          <li>{t('public.terms.plans.failedRenewal')}</li>
        </ul>
      </StaticSection>

      <StaticSection id="availability" title={t('public.terms.availability.title')}>
        <p>{t('public.terms.availability.p1')}</p>
      </StaticSection>

      <StaticSection id="changes" title={t('public.terms.changes.title')}>
        <p>{t('public.terms.changes.p1')}</p>
      </StaticSection>
    </StaticPage>
  );
}
