/**
 * The interface in German (docs/i18n.md), in a real browser, in both modes: Chromium set to German shows the landing
 * page, the public pages and the room's setup form in German with no text of the English catalogs left; the language
 * switcher in the footer changes to English and back, and the choice survives a reload; axe finds no serious or
 * critical violation in the switcher.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { assertFrontendBuilt, launchBrowser, uniqueRoomName, WAIT_MS } from './browser.ts';
import { MODES, type BrowserTarget } from './targets.ts';

const LOCALES_DIR = path.join(import.meta.dirname, '..', 'src', 'i18n', 'locales');
const catalog = (locale: string, area: string) =>
  JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, locale, `${area}.json`), 'utf8')) as Record<string, string>;

/**
 * The English words a German page must not show: for each key of the areas the public pages use whose German text
 * differs, the English message's literal pieces (placeholders, plural branches and tags cut out) of 4 characters or
 * more.
 */
function englishPieces(): string[] {
  const pieces = new Set<string>();
  for (const area of ['common', 'public']) {
    const en = catalog('en', area);
    const de = catalog('de', area);
    for (const [key, message] of Object.entries(en)) {
      if (de[key] === message) continue; // the same in both languages (names: Pro, Business, Dashboard)
      const literal = message.includes('plural,') ? '' : message.replace(/<\/?\d+>/g, '');
      for (const piece of literal.split(/\{[^}]*\}/)) if (piece.trim().length >= 4) pieces.add(piece.trim());
    }
  }
  return [...pieces];
}

const PUBLIC_PAGES = ['/', '/about', '/features', '/privacy', '/terms', '/contact', '/login'];

for (const [mode, start] of MODES) {
  describe(`browser: the interface in German (${mode})`, () => {
    let browser: Browser;
    let target: BrowserTarget;
    const contexts: BrowserContext[] = [];
    const germanBrowser = async (): Promise<Page> => {
      const context = await browser.newContext({ locale: 'de-DE', baseURL: target.urlA });
      if (target.cookiesA.length) await context.addCookies(target.cookiesA);
      context.setDefaultTimeout(WAIT_MS);
      contexts.push(context);
      return context.newPage();
    };
    const englishLeft = async (page: Page, selector: string) => {
      const text = await page.locator(selector).first().innerText();
      return englishPieces().filter((piece) => text.includes(piece));
    };

    beforeAll(async () => {
      assertFrontendBuilt();
      [target, browser] = await Promise.all([start(`i18n-${mode}`), launchBrowser()]);
    }, 240_000);
    afterAll(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    it('a German browser gets the landing page and every public page in German, with no English text left', async () => {
      expect(englishPieces().length).toBeGreaterThan(100); // the check has something to find
      const page = await germanBrowser();
      for (const p of PUBLIC_PAGES) {
        await page.goto(p);
        await page.locator('main').first().waitFor();
        expect(await page.evaluate(() => document.documentElement.lang), p).toBe('de');
        expect(await englishLeft(page, 'body'), `English on ${p}`).toEqual([]);
      }
      await page.goto('/');
      await expect.poll(() => page.locator('h1').innerText()).toContain('verschwindet');
      expect(await page.locator('[data-testid="faq-question"]').first().innerText()).toBe(
        'Wie lange besteht ein Chatraum?',
      );
    });

    it("the room's setup form is German too", async () => {
      const page = await germanBrowser();
      await page.goto(`/${uniqueRoomName('i18n')}?create=true`);
      const overlay = page.getByTestId('join-overlay');
      await overlay.waitFor();
      await expect.poll(() => overlay.innerText()).toContain('Raum einrichten');
      expect(await englishLeft(page, '[data-testid="join-overlay"]')).toEqual([]);
    });

    it('the switcher changes to English and back, and the choice survives a reload', async () => {
      const page = await germanBrowser();
      await page.goto('/');
      const switcher = page.getByTestId('language-switcher');
      const headline = page.locator('h1');
      await expect.poll(() => headline.innerText()).toContain('verschwindet');

      await switcher.selectOption('en');
      await expect.poll(() => headline.innerText()).toBe("Group chat that disappears when you're done");
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      await page.reload();
      await expect.poll(() => headline.innerText()).toBe("Group chat that disappears when you're done");
      expect(await switcher.inputValue()).toBe('en');

      await switcher.selectOption('de');
      await expect.poll(() => headline.innerText()).toContain('verschwindet');
      await page.goto('/about');
      await expect.poll(() => page.locator('h1').innerText()).toBe('Über Ephemera');
      await page.reload();
      await expect.poll(() => page.locator('h1').innerText()).toBe('Über Ephemera');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    });

    it('axe: the language switcher has no serious or critical violation', async () => {
      const page = await germanBrowser();
      await page.goto('/');
      await page.getByTestId('language-switcher').waitFor();
      const result = await new AxeBuilder({ page })
        .include('.language-switcher')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  });
}
