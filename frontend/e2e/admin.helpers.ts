/** Helpers of the room administration browser tests (admin.scenario.ts). */
import type { Locator, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { User, WAIT_MS } from './browser.ts';

export const H = 3_600_000;
export const M = 60_000;

/** CSS variable on the document root, as the theme set it ('' when the stylesheet's own value applies). */
export const rootVar = (u: User, name: string) =>
  u.page.evaluate((n) => document.documentElement.style.getPropertyValue(n), name);
export const rootTheme = (u: User) => u.page.evaluate(() => document.documentElement.dataset.theme ?? '');

/** Serious and critical axe violations of the page as it is now (after finishing CSS animations; as shell.e2e does). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  // A toast whose time ran out during the scan fades out (.leaving): its text is on its way out, not content, and
  // its contrast falls with its opacity. CI once saw axe read one mid-fade; the toast was checked while shown.
  const fading = (n: { target: unknown[] }) => n.target.join(' ').includes('.leaving');
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !fading(n)) }))
    .filter((v) => v.nodes.length > 0)
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} -> ${v.nodes
          .slice(0, 4)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

export async function openSettings(u: User): Promise<Locator> {
  const panel = u.byTestId('settings-panel');
  if ((await panel.count()) === 0) await u.byTestId('settings-button').click();
  await panel.waitFor({ timeout: WAIT_MS });
  return panel;
}
