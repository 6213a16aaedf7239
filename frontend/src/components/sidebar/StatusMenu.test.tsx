import { beforeAll, describe, expect, it } from 'vitest';
import { loadArea, setLocale } from '../../i18n/i18n.ts';
import { renderToStaticMarkup } from 'react-dom/server';
import { StatusMenu, statusChoices } from './StatusMenu.tsx';
import type { ChosenStatus } from './presence.ts';

describe('status menu (docs/product/messages.md M13)', () => {
  beforeAll(async () => {
    await setLocale('en', { save: false });
    await loadArea('roomside');
  });

  it('offers Online and Busy (the current one ticked); choosing one hands it to the presence tracker', () => {
    const chosen: ChosenStatus[] = [];
    const items = statusChoices('busy', (s) => chosen.push(s));
    expect(items.map((i) => [i.label, i.testId])).toEqual([
      ['Online', 'status-online'],
      ['Busy ✓', 'status-busy'],
    ]);
    items[1]!.onSelect();
    items[0]!.onSelect();
    expect(chosen).toEqual(['busy', 'online']);
    expect(statusChoices('away', () => {}).map((i) => i.label)).toEqual(['Online', 'Busy']);
  });

  it('the avatar is the button: it says the status and shows its dot', () => {
    const html = renderToStaticMarkup(<StatusMenu name="bob" status="busy" choose={() => {}} />);
    expect(html).toContain('aria-label="Status: Busy. Change status"');
    expect(html).toContain('data-testid="status-button" data-status="busy"');
    expect(html).toMatch(/data-testid="presence-dot" data-status="busy"[^>]*aria-label="Busy"/);
  });
});
