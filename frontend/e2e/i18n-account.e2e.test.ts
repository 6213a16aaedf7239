/**
 * The account pages and the superadmin dashboard in German (docs/i18n.md), in a real browser, in both modes: an
 * account whose chosen language is German signs in by e-mail code and sees its dashboard, its subscription and the
 * pricing page with no text of the English account catalog left in their words or labels, and billing's sign-in
 * notice, a wrong code's refusal and a payment that could not be verified in German; the superadmin sees every tab
 * of the dashboard with none of the English admin catalog left, and the maintenance prompt offers its default in
 * German but sends proto's English default, which each visitor's banner shows in their own language.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { ADMIN_API, ADMIN_PAGE_PATH, ADMIN_TEXT } from '@ephemera/proto';
import { startMailpit, type Mailpit } from '../../test/helpers/mailpit.ts';
import { assertFrontendBuilt, launchBrowser, saidBy, User, WAIT_MS } from './browser.ts';
import { MODES, SUPERADMIN_EMAIL, type BrowserTarget } from './targets.ts';
import { enterMailedCode, signInByCode } from './sign-in.ts';

const LOCALES_DIR = path.join(import.meta.dirname, '..', 'src', 'i18n', 'locales');
const catalog = (locale: string, area: string) =>
  JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, locale, `${area}.json`), 'utf8')) as Record<string, string>;

/**
 * The English words a German page must not show: for each key of the area whose German text differs, the English
 * message's literal pieces (placeholders, selects, plurals and tags cut out) of 4 characters or more that are not
 * also part of a German text of the area.
 */
function englishPieces(area: string): string[] {
  const en = catalog('en', area);
  const de = catalog('de', area);
  const german = Object.values(de);
  const pieces = new Set<string>();
  for (const [key, message] of Object.entries(en)) {
    if (de[key] === message) continue; // the same in both languages (Pro, Business, Feedback)
    const literal = /, (plural|select),/.test(message) ? '' : message.replace(/<\/?\d+>/g, '');
    for (const piece of literal.split(/\{[^}]*\}/)) {
      const p = piece.trim();
      if (p.length >= 4 && !german.some((g) => g.includes(p))) pieces.add(p);
    }
  }
  return [...pieces];
}

const TABS = ['dashboard', 'users', 'rooms', 'analytics', 'system', 'feedback', 'settings'];

for (const [mode, start] of MODES) {
  describe(`browser: the account pages and the superadmin dashboard in German (${mode})`, () => {
    let browser: Browser;
    let target: BrowserTarget;
    let mail: Mailpit;
    const users: User[] = [];
    const openGerman = async (name: string) => {
      const u = await User.open(browser, name, target.urlA, target.cookiesA, target.replicaA);
      users.push(u);
      // the visitor's saved choice (docs/i18n.md: it wins over the browser's languages)
      await u.context.addInitScript(() => localStorage.setItem('ephemera.locale', 'de'));
      return u;
    };

    beforeAll(async () => {
      assertFrontendBuilt();
      mail = await startMailpit();
      [target, browser] = await Promise.all([
        start(`i18n-account-${mode}`, { smtpUrl: mail.smtpUrl, google: null }),
        launchBrowser(),
      ]);
    }, 240_000);
    afterAll(async () => {
      for (const u of users) await u.close();
      await browser?.close().catch(() => {});
      await target?.stop();
      await mail?.stop();
    });

    it('a signed-in account sees its dashboard, subscription and pricing in German', async () => {
      // the plan descriptions, prices and guarantees (lib/planCopy.ts) are in the common catalog
      const english = [...englishPieces('account'), ...englishPieces('common')];
      expect(english).toContain("Your plan's limits"); // the check has something to find
      expect(english.length).toBeGreaterThan(60);
      const englishIn = async (part: Locator) => {
        const said = await saidBy(part);
        return english.filter((piece) => said.includes(piece));
      };
      const ana = await openGerman('ana');
      const email = `ana-${Date.now().toString(36)}@example.test`;
      await ana.goto('/login?redirect=%2Fdashboard');
      await enterMailedCode(ana, mail, email, 'ana');
      // billing's notice (its own English words) in German (i18n/sharedTexts.ts)
      expect(await ana.byTestId('login-notice').textContent()).toBe(
        `Wir haben einen Anmeldecode an ${email} geschickt`,
      );
      // a wrong code: the server's refusal (proto's ERRORS, by its English words) in German
      const code = ana.byTestId('login-code');
      const mailed = await code.inputValue();
      await code.fill(mailed === '000000' ? '111111' : '000000');
      await ana.byTestId('login-verify').click();
      await expect
        .poll(() => ana.byTestId('login-error').textContent(), { timeout: WAIT_MS })
        .toBe('Der Code ist falsch oder abgelaufen. Fordere einen neuen an.');
      await code.fill(mailed);
      await ana.byTestId('login-verify').click();
      await ana.page.waitForURL((url) => url.pathname === '/dashboard', { timeout: WAIT_MS });
      const dashboard = ana.byTestId('dashboard-page');
      await dashboard.waitFor({ timeout: WAIT_MS });
      await expect.poll(() => saidBy(dashboard), { timeout: WAIT_MS }).toContain('Willkommen, ana');
      const said = await saidBy(dashboard);
      for (const german of ['Die Grenzen deines Tarifs', 'Deine Räume', 'Einen Raum erstellen', 'Konto löschen'])
        expect(said, german).toContain(german);
      expect(await ana.page.evaluate(() => document.documentElement.lang)).toBe('de');
      expect(await englishIn(dashboard)).toEqual([]);

      await ana.goto('/subscription');
      const subscription = ana.byTestId('subscription-page');
      await subscription.waitFor({ timeout: WAIT_MS });
      await expect.poll(() => saidBy(subscription), { timeout: WAIT_MS }).toContain('Aktueller Tarif');
      expect(await englishIn(subscription)).toEqual([]);
      expect(await saidBy(subscription)).toContain('Grenze im Tarif Kostenlos: 10 MB pro Datei');

      await ana.goto('/upgrade');
      const pricing = ana.byTestId('pricing-page');
      await pricing.waitFor({ timeout: WAIT_MS });
      await expect.poll(() => saidBy(pricing), { timeout: WAIT_MS }).toContain('Wähle deinen Tarif');
      expect(await englishIn(pricing)).toEqual([]);
      for (const german of ['Bis zu 5 Personen pro Raum', 'Alle 11 Designs plus eigenes', 'Jederzeit kündbar'])
        expect(await saidBy(pricing), german).toContain(german);

      // a checkout the server cannot verify: the payments' own English text (lib/payments.ts) in German
      await ana.goto('/payment/success?session_id=cs_test_unknown_session');
      await ana.byTestId('payment-failed-message').waitFor({ timeout: WAIT_MS });
      expect(await ana.byTestId('payment-failed-message').textContent()).toBe(
        'Wir konnten deine Zahlung nicht bestätigen. Bitte wende dich an den Support, wenn du glaubst, dass das ein Fehler ist.',
      );
      expect(ana.pageErrors).toEqual([]);
    });

    it('the superadmin sees every tab of the dashboard in German', async () => {
      const english = englishPieces('admin');
      expect(english).toContain('Revenue Metrics');
      const englishIn = async (part: Locator) => {
        const said = await saidBy(part);
        return english.filter((piece) => said.includes(piece));
      };
      const root = await openGerman('root');
      await signInByCode(root, mail, SUPERADMIN_EMAIL, 'root', ADMIN_PAGE_PATH);
      const page = root.byTestId('superadmin-page');
      await page.waitFor({ timeout: WAIT_MS });
      await expect.poll(() => saidBy(page), { timeout: WAIT_MS }).toContain('Admin-Dashboard');
      for (const tab of TABS) {
        await root.byTestId(`sa-tab-${tab}`).click();
        const panel = root.byTestId(`sa-panel-${tab}`);
        await panel.waitFor({ timeout: WAIT_MS });
        await expect.poll(() => root.byTestId('sa-refresh').isEnabled(), { timeout: WAIT_MS }).toBe(true);
        expect(await englishIn(page), tab).toEqual([]);
      }
      const said = await saidBy(page);
      for (const german of ['Abmelden', 'Benutzer', 'Räume', 'Analysen', 'Einstellungen'])
        expect(said, german).toContain(german);

      // maintenance: the prompt offers the default in German; sent unchanged it is stored as proto's English default
      await root.byTestId('sa-tab-system').click();
      const toggle = root.byTestId('sa-maintenance-toggle');
      await expect.poll(() => toggle.isEnabled(), { timeout: WAIT_MS }).toBe(true); // once the settings are loaded
      await toggle.click();
      const offered = root.byTestId('ask-input');
      await offered.waitFor({ timeout: WAIT_MS });
      expect(await offered.inputValue()).toBe('Das System wird gerade gewartet. Bitte versuche es später noch einmal.');
      await root.byTestId('ask-ok').click();
      const stored = () =>
        root.page.evaluate(
          async (path) => (await (await fetch(path)).json()) as { enabled: boolean; message: string | null },
          ADMIN_API.maintenanceStatus,
        );
      await expect
        .poll(stored, { timeout: WAIT_MS })
        .toEqual({ enabled: true, message: ADMIN_TEXT.maintenanceDefault });
      // the tab names the stored default in German too
      await expect
        .poll(() => saidBy(root.byTestId('sa-maintenance')), { timeout: WAIT_MS })
        .toContain('Das System wird gerade gewartet.');
      await expect.poll(() => toggle.isEnabled(), { timeout: WAIT_MS }).toBe(true);
      await toggle.click(); // off again
      await expect.poll(async () => (await stored()).enabled, { timeout: WAIT_MS }).toBe(false);
      expect(root.pageErrors).toEqual([]);
    });
  });
}
