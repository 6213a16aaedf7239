import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { UnreadBadge } from './UnreadBadge.tsx';
import { loadArea, setLocale } from '../../i18n/i18n.ts';

describe('unread badge', () => {
  beforeAll(async () => {
    await setLocale('en', { save: false });
    await loadArea('roomside');
  });

  it('keeps its text and test id (99+ above 99), nothing at 0', () => {
    expect(renderToStaticMarkup(<UnreadBadge count={3} />)).toBe(
      '<span class="badge-unread badge-animated" data-testid="unread-badge" aria-label="3 unread">3</span>',
    );
    expect(renderToStaticMarkup(<UnreadBadge count={150} />)).toContain('>99+</span>');
    expect(renderToStaticMarkup(<UnreadBadge count={0} />)).toBe('');
  });

  it('says how many in the active language', async () => {
    await setLocale('de', { save: false });
    expect(renderToStaticMarkup(<UnreadBadge count={3} />)).toContain('aria-label="3 ungelesen"');
    await setLocale('en', { save: false });
  });

  it('animates 0.5 s after the count changes (docs/product/messages.md M9), not with reduced motion', () => {
    const css = fs.readFileSync(new URL('./sidebar.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(css).toMatch(/\.badge-unread\.badge-animated\s*\{\s*animation:\s*badge-pop\s+\S+\s+ease-out\s+500ms\b/);
    expect(css).toMatch(
      /@media \(prefers-reduced-motion: reduce\)\s*\{\s*\.badge-unread\.badge-animated\s*\{\s*animation:\s*none/,
    );
  });
});
