/**
 * The account dashboard's layout as a user sees it (docs/product/accounts.md A7; embedded, Mailpit for the sign-in
 * code): every section is a card of its own, set off from the page by a border and a gap, with its own heading; a
 * checkbox sits right before its text on the same line; text fields have the room page's field height. At 1280 px
 * and at 375 px (nothing wider than the screen). Screenshots in the temp folder for a person to look at.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { createLogger } from '@ephemera/platform';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { startMailpit, type Mailpit } from '../../test/helpers/mailpit.ts';
import { FRONTEND_DIST, launchBrowser, User } from './browser.ts';
import { signInByCode } from './sign-in.ts';
import { seriousViolations } from './admin.helpers.ts';

const DIST = process.env.E2E_FRONTEND_DIST ?? FRONTEND_DIST;

interface Layout {
  cards: {
    border: number;
    borderColor: string;
    top: number;
    bottom: number;
    heading: string | null;
    labelledBy: string | null;
  }[];
  checkbox: { dx: number; dy: number } | null;
  fieldHeights: number[];
  overflow: number;
}

/** What the dashboard looks like, measured in the page. */
function measure(): Layout {
  const cards = [...document.querySelectorAll<HTMLElement>('[data-testid="dashboard-page"] > section')].map((el) => {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const heading = el.querySelector('h1, h2');
    return {
      border: parseFloat(cs.borderTopWidth),
      borderColor: cs.borderTopColor,
      top: r.top,
      bottom: r.bottom,
      heading: heading?.id ?? null,
      labelledBy: el.getAttribute('aria-labelledby'),
    };
  });
  const box = document.querySelector<HTMLInputElement>('[data-testid="create-room-form"] input[type="checkbox"]');
  let checkbox: Layout['checkbox'] = null;
  if (box) {
    const label = box.closest('label')!;
    const text = [...label.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
    const range = document.createRange();
    range.selectNodeContents(text!);
    const t = [...range.getClientRects()].find((c) => c.width > 0)!;
    const b = box.getBoundingClientRect();
    checkbox = { dx: t.left - b.right, dy: Math.abs((t.top + t.bottom) / 2 - (b.top + b.bottom) / 2) };
  }
  const fieldHeights = [
    ...document.querySelectorAll<HTMLInputElement>('[data-testid="dashboard-page"] input:not([type="checkbox"])'),
  ].map((i) => Math.round(i.getBoundingClientRect().height));
  return { cards, checkbox, fieldHeights, overflow: document.documentElement.scrollWidth - window.innerWidth };
}

describe("browser: the account dashboard's layout (embedded)", () => {
  let browser: Browser;
  let app: EmbeddedApp;
  let mail: Mailpit;
  let dataDir: string;
  const users: User[] = [];
  beforeAll(async () => {
    if (!fs.existsSync(path.join(DIST, 'index.html')))
      throw new Error(`${DIST}/index.html is missing: build the frontend first (npm run build:frontend)`);
    mail = await startMailpit();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-dashboard-'));
    app = await startEmbedded({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logger: createLogger('e2e-dashboard', 'silent'),
      smtpUrl: mail.smtpUrl,
      google: null,
      frontendDist: DIST,
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const u of users) await u.close();
    await browser?.close();
    await app?.stop();
    await mail?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("sections are cards of their own with their headings; the password checkbox is on its text's line; fields 44 px; fits 375 px; axe clean", async () => {
    const u = await User.open(browser, 'dana', app.url);
    users.push(u);
    await signInByCode(u, mail, `dash-${Date.now()}@example.test`, 'dana', '/dashboard');
    await u.byTestId('room-list').or(u.byTestId('no-rooms')).waitFor();

    for (const width of [1280, 375]) {
      await u.page.setViewportSize({ width, height: 900 });
      const l = await u.page.evaluate(measure);
      await u.page.screenshot({ path: path.join(os.tmpdir(), `ephemera-e2e-dashboard-${width}.png`), fullPage: true });
      expect.soft(l.cards.length, 'profile, limits, rooms, account').toBeGreaterThanOrEqual(4);
      for (const [i, c] of l.cards.entries()) {
        expect.soft(c.border, `section ${i}: a border sets it off from the page`).toBeGreaterThanOrEqual(1);
        expect.soft(c.borderColor, `section ${i}: a visible border`).not.toBe('rgba(0, 0, 0, 0)');
        expect.soft(c.heading, `section ${i}: its own heading names it`).not.toBeNull();
        expect.soft(c.labelledBy, `section ${i}: named by its heading`).toBe(c.heading);
        if (i > 0) expect.soft(c.top - l.cards[i - 1]!.bottom, `a gap before section ${i}`).toBeGreaterThanOrEqual(16);
      }
      expect(l.checkbox, 'the password checkbox').not.toBeNull(); // soft checks below: every fault of the layout is listed
      expect.soft(l.checkbox!.dy, `${width} px: the checkbox on its text's line`).toBeLessThan(6);
      expect.soft(l.checkbox!.dx, `${width} px: the text right after the checkbox`).toBeGreaterThanOrEqual(0);
      expect.soft(l.checkbox!.dx, `${width} px: the text right after the checkbox`).toBeLessThan(16);
      for (const h of l.fieldHeights) expect.soft(h, "a text field as tall as the room page's").toBe(44);
      expect.soft(l.overflow, `${width} px: nothing wider than the screen`).toBeLessThanOrEqual(0);
      expect.soft(await seriousViolations(u.page), `${width} px: axe`).toEqual([]);
    }
  });
});
