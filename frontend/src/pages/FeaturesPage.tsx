/**
 * /features: what a room can do (docs/product/accounts.md A14) and the plan comparison, whose every cell comes from
 * the entitlement table and the plan prices (lib/planComparison.ts).
 */
import { PLAN_GUARANTEES } from '@ephemera/proto/client';
import { AppLink } from '../components/AppLink.tsx';
import { FeatureGrid, type Feature } from '../components/FeatureGrid.tsx';
import { ClockIcon, FileIcon, MessageIcon, ShieldIcon, SparkIcon, VideoIcon } from '../components/Icons.tsx';
import { PLAN_NAMES, PLAN_TIERS, planComparison, planPrice, type PlanCell } from '../lib/planComparison.ts';
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
  if (value === true)
    return (
      <span className="plan-yes">
        <span aria-hidden="true">✓</span>
        <span className="visually-hidden">Included</span>
      </span>
    );
  if (value === false)
    return (
      <span className="plan-no">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">Not included</span>
      </span>
    );
  return <>{value}</>;
}

function PlanTable() {
  const rows = planComparison();
  return (
    <div className="plan-table-wrap">
      <table className="plan-table" data-testid="plan-comparison">
        <caption>Prices per month; every limit is the one our servers enforce.</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Feature</span>
            </th>
            {PLAN_TIERS.map((tier) => (
              <th key={tier} scope="col" className={`plan-col-${tier}`} data-testid={`plan-head-${tier}`}>
                {PLAN_NAMES[tier]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid={`plan-row-${row.id}`}>
              <th scope="row">{row.label}</th>
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
  const pro = planPrice('pro');
  const business = planPrice('business');
  return (
    <StaticPage
      title="Features"
      description={`Ephemera features: instant temporary chat rooms, files and voice messages, password-protected rooms, calls with screen sharing. Compare Free, Pro (${pro.amount}/${pro.per}) and Business (${business.amount}/${business.per}).`}
      heading="Features"
      lead="Everything a quick conversation needs, and nothing that outlives it."
      testId="features-page"
      wide
    >
      <section aria-labelledby="features-list-title" className="static-section">
        <h2 id="features-list-title">What every room can do</h2>
        <FeatureGrid features={FEATURES} testId="features-card" />
      </section>

      <StaticSection id="compare" title="Compare plans">
        <PlanTable />
        <p className="static-note">
          {PLAN_GUARANTEES.moneyBackDays}-day money-back guarantee on Pro and Business
          {PLAN_GUARANTEES.cancelAnytime ? ', cancel anytime' : ''}. Free rooms can also be extended for a few days with
          a one-time payment.
        </p>
        <div className="static-cta">
          <AppLink href="/upgrade" className="button button-primary button-lg" data-testid="features-upgrade">
            See pricing and upgrade
          </AppLink>
          <AppLink href="/" className="button button-ghost button-lg">
            Start a free room
          </AppLink>
        </div>
      </StaticSection>
    </StaticPage>
  );
}
