import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { FigureSection } from './ui.tsx';

describe('figure section', () => {
  // The browser test reads figures by their test ids and axe checks the heading the section is labelled by.
  it('is a section labelled by its heading, one card per figure with its label, value (test id), hint and tone', () => {
    const html = renderToStaticMarkup(
      <FigureSection
        title="Payment Issues"
        testId="sa-issues"
        actions={<button type="button">Reset</button>}
        figures={[
          { label: 'Failed Payments', value: '3', testId: 'sa-failed' },
          { label: 'Refunds', value: 0, hint: 'this month', tone: 'bad' },
        ]}
      />,
    );
    expect(html).toBe(
      '<section class="sa-section" aria-labelledby="sa-payment-issues" data-testid="sa-issues">' +
        '<div class="sa-section-head"><h2 id="sa-payment-issues">Payment Issues</h2><div class="sa-section-actions"><button type="button">Reset</button></div></div>' +
        '<div class="sa-cards">' +
        '<div class="sa-card"><div class="sa-card-label">Failed Payments</div><div class="sa-card-value" data-testid="sa-failed">3</div></div>' +
        '<div class="sa-card sa-card-bad"><div class="sa-card-label">Refunds</div><div class="sa-card-value">0</div><div class="sa-card-hint">this month</div></div>' +
        '</div></section>',
    );
  });
});
