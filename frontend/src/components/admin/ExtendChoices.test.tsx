import { beforeAll, describe, expect, it } from 'vitest';
import { loadArea, setLocale } from '../../i18n/i18n.ts';
import { renderToStaticMarkup } from 'react-dom/server';
import { ExtendChoices } from './ExtendChoices.tsx';

/** each choice's visible text, in order: days, the Popular mark, name, price line */
const choices = (html: string) =>
  [...html.matchAll(/<button[^>]*data-testid="extend-(\d+)"[^>]*>(.*?)<\/button>/g)].map(([, days, inner]) => [
    days,
    inner!
      .replace(/<[^>]+>/g, '|')
      .split('|')
      .filter(Boolean)
      .join(' / '),
  ]);

describe('extension choices (docs/product/rooms.md R35)', () => {
  beforeAll(async () => {
    await setLocale('en', { save: false });
    await loadArea('roomside');
  });

  it('7 days Standard and 30 days Maximum marked Popular, with the one-time price of a free room', () => {
    expect(choices(renderToStaticMarkup(<ExtendChoices days={7} free={false} onChoose={() => {}} />))).toEqual([
      ['7', '7 days / Standard / $2.99 one-time'],
      ['30', '30 days / Popular / Maximum / $8.99 one-time'],
    ]);
  });

  it('a pro or business room: the same names, included in the plan; the chosen one is checked', () => {
    const html = renderToStaticMarkup(<ExtendChoices days={30} free onChoose={() => {}} />);
    expect(choices(html)).toEqual([
      ['7', '7 days / Standard / Included in your plan'],
      ['30', '30 days / Popular / Maximum / Included in your plan'],
    ]);
    expect(html).toMatch(/aria-checked="true"[^>]*data-testid="extend-30"/);
    expect(html).toMatch(/aria-checked="false"[^>]*data-testid="extend-7"/);
  });

  it('in German: the words and the price in its way of writing money', async () => {
    await setLocale('de', { save: false });
    expect(choices(renderToStaticMarkup(<ExtendChoices days={7} free={false} onChoose={() => {}} />))).toEqual([
      ['7', '7 Tage / Standard / 2,99\u00a0$ einmalig'],
      ['30', '30 Tage / Beliebt / Maximum / 8,99\u00a0$ einmalig'],
    ]);
    await setLocale('en', { save: false });
  });
});
