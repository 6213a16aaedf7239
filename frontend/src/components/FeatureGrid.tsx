import type { ReactNode } from 'react';
import { useT, type MessageId } from '../i18n/i18n.ts';

export interface Feature {
  title: MessageId;
  text: MessageId;
  icon: ReactNode;
}

/** Feature cards (the landing page's and /features'): an icon, a title and a sentence each. */
export function FeatureGrid({ features, testId }: { features: readonly Feature[]; testId: string }) {
  const t = useT();
  return (
    <div className="feature-grid">
      {features.map((f) => (
        <article key={f.title} className="feature-card" data-testid={testId}>
          <div className="feature-icon">{f.icon}</div>
          <h3>{t(f.title)}</h3>
          <p>{t(f.text)}</p>
        </article>
      ))}
    </div>
  );
}
