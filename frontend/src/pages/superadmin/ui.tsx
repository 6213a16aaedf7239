/** The dashboard's building blocks: a section with its heading, figure cards (alone or as a section), badges. */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/i18n.ts';

export function Section({
  title,
  actions,
  children,
  testId,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const id = `sa-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="sa-section" aria-labelledby={id} data-testid={testId}>
      <div className="sa-section-head">
        <h2 id={id}>{title}</h2>
        {actions && <div className="sa-section-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** One figure: its label and value (data-testid on the value, for the browser test). */
export function StatCard({
  label,
  value,
  hint,
  testId,
  tone,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  testId?: string;
  tone?: 'good' | 'bad';
}) {
  return (
    <div className={`sa-card${tone ? ` sa-card-${tone}` : ''}`}>
      <div className="sa-card-label">{label}</div>
      <div className="sa-card-value" data-testid={testId}>
        {value}
      </div>
      {hint && <div className="sa-card-hint">{hint}</div>}
    </div>
  );
}

export function Cards({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="sa-cards" data-testid={testId}>
      {children}
    </div>
  );
}

/** One figure of a FigureSection: what its StatCard shows. */
export interface Figure {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  testId?: string;
  tone?: 'good' | 'bad';
}

/** A titled section holding one row of figure cards: most of the Analytics tab, and the Feedback tab's counts. */
export function FigureSection({
  title,
  figures,
  actions,
  testId,
}: {
  title: string;
  figures: Figure[];
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <Section title={title} actions={actions} testId={testId}>
      <Cards>
        {figures.map((f) => (
          <StatCard key={f.testId ?? f.label} {...f} />
        ))}
      </Cards>
    </Section>
  );
}

export function Badge({
  children,
  tone = 'neutral',
  testId,
  title,
}: {
  children: ReactNode;
  tone?: 'neutral' | 'good' | 'bad' | 'info' | 'warn' | 'pro' | 'business';
  testId?: string;
  title?: string;
}) {
  return (
    <span className={`sa-badge sa-badge-${tone}`} data-testid={testId} title={title}>
      {children}
    </span>
  );
}

/** What a tab shows when its resource did not load (its call failed); `what` is already in the active language. */
export function Unavailable({ what }: { what: string }) {
  const t = useT();
  return (
    <p className="sa-unavailable" role="status">
      {t('admin.unavailable', { what })}
    </p>
  );
}
