/**
 * /features: what a room can do (docs/product/accounts.md A14) and the plan comparison, whose every cell comes from
 * the entitlement table and the plan prices (lib/planComparison.ts).
 */
import { PLAN_GUARANTEES } from '@ephemera/proto/client';
import { AppLink } from '../components/AppLink.tsx';
import { FeatureGrid, type Feature } from '../components/FeatureGrid.tsx';
import { ClockIcon, FileIcon, MessageIcon, ShieldIcon, SparkIcon, VideoIcon } from '../components/Icons.tsx';
import { PLAN_TIERS, planComparison, planName, planPrice, type PlanCell } from '../lib/planComparison.ts';
import { useT } from '../i18n/i18n.ts';
import { StaticPage, StaticSection } from './StaticPage.tsx';

const FEATURES: Feature[] = [
  { title: 'public.features.instant.title', text: 'public.features.instant.text', icon: <ClockIcon size={22} /> },
  { title: 'public.features.messaging.title', text: 'public.features.messaging.text', icon: <MessageIcon size={22} /> },
  { title: 'public.features.files.title', text: 'public.features.files.text', icon: <FileIcon size={22} /> },
  { title: 'public.features.private.title', text: 'public.features.private.text', icon: <ShieldIcon size={22} /> },
  { title: 'public.features.calls.title', text: 'public.features.calls.text', icon: <VideoIcon size={22} /> },
  { title: 'public.features.themes.title', text: 'public.features.themes.text', icon: <SparkIcon size={22} /> },
];

function Cell({ value }: { value: PlanCell }) {
  const t = useT();
  if (value === true)
    return (
      <span className="plan-yes">
        <span aria-hidden="true">✓</span>
        <span className="visually-hidden">{t('public.features.included')}</span>
      </span>
    );
  if (value === false)
    return (
      <span className="plan-no">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">{t('public.features.notIncluded')}</span>
      </span>
    );
  return <>{value}</>;
}

function PlanTable() {
  const t = useT();
  const rows = planComparison();
  return (
    <div className="plan-table-wrap">
      <table className="plan-table" data-testid="plan-comparison">
        <caption>{t('public.features.tableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">{t('public.features.featureColumn')}</span>
            </th>
            {PLAN_TIERS.map((tier) => (
              <th key={tier} scope="col" className={`plan-col-${tier}`} data-testid={`plan-head-${tier}`}>
                {planName(tier)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid={`plan-row-${row.id}`}>
              <th scope="row">{t(row.label)}</th>
              {PLAN_TIERS.map((tier) => (
                <td key={tier} className={`plan-col-${tier}`} data-tier={tier}>
                  <Cell value={row.values[tier]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function FeaturesPage() {
  const t = useT();
  const pro = planPrice('pro');
  const business = planPrice('business');
  return (
    <StaticPage
      title={t('public.features.title')}
      description={t('public.features.description', { pro: pro.amount, business: business.amount })}
      heading={t('public.features.title')}
      lead={t('public.features.lead')}
      testId="features-page"
      wide
    >
      <section aria-labelledby="features-list-title" className="static-section">
        <h2 id="features-list-title">{t('public.features.listTitle')}</h2>
        <FeatureGrid features={FEATURES} testId="features-card" />
      </section>

      <StaticSection id="compare" title={t('public.features.compareTitle')}>
        <PlanTable />
        <p className="static-note">
          {t(PLAN_GUARANTEES.cancelAnytime ? 'public.features.guaranteeCancel' : 'public.features.guarantee', {
            days: PLAN_GUARANTEES.moneyBackDays,
          })}
        </p>
        <div className="static-cta">
          <AppLink href="/upgrade" className="button button-primary button-lg" data-testid="features-upgrade">
            {t('public.features.ctaUpgrade')}
          </AppLink>
          <AppLink href="/" className="button button-ghost button-lg">
            {t('public.features.ctaFree')}
          </AppLink>
        </div>
      </StaticSection>
    </StaticPage>
  );
}
