import type { ReactNode } from 'react';

export interface Feature {
  title: string;
  text: string;
  icon: ReactNode;
}

/** Feature cards (the landing page's and /features'): an icon, a title and a sentence each. */
export function FeatureGrid({ features, testId }: { features: readonly Feature[]; testId: string }) {
  return (
    <div className="feature-grid">
      {features.map((f) => (
        <article key={f.title} className="feature-card" data-testid={testId}>
          <div className="feature-icon">{f.icon}</div>
          <h3>{f.title}</h3>
          <p>{f.text}</p>
        </article>
      ))}
    </div>
  );
}
