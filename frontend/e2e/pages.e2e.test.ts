/**
 * The static pages in a real browser against embedded mode: About, Privacy, Terms, Features and Contact each open
 * with their heading, tab title and meta description (and no X-Robots-Tag, unlike room pages), the static-page header
 * (Pricing, Create Room) and links to / and /contact; Features shows the plan comparison from the entitlement table;
 * the contact form checks its fields, shows 'Sending...' then 'Message Sent!', stores the message in billing (without
 * the newsletter box), resets with 'Send Another Message', and says 'Failed to send message. Please try again.' when
 * the server refuses. axe finds no serious or critical violation on any of them; nothing overflows at 375 px.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Request } from 'playwright-core';
import { createLogger } from '@ephemera/platform';
import { CONTACT_TEXT } from '@ephemera/proto';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { assertFrontendBuilt, expectText, launchBrowser, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { seriousViolations } from './admin.helpers.ts';

const PAGES = [
  { path: '/about', testId: 'about-page', heading: 'About Ephemera', title: 'About · Ephemera' },
  { path: '/privacy', testId: 'privacy-page', heading: 'Privacy Policy', title: 'Privacy Policy · Ephemera' },
  { path: '/terms', testId: 'terms-page', heading: 'Terms of Service', title: 'Terms of Service · Ephemera' },
  { path: '/features', testId: 'features-page', heading: 'Features', title: 'Features · Ephemera' },
  { path: '/contact', testId: 'contact-page', heading: 'Contact us', title: 'Contact Us · Ephemera' },
];
const meta = (u: User, selector: string) =>
  u.page.evaluate((s) => document.head.querySelector(s)?.getAttribute('content') ?? null, selector);

describe('static pages and the contact form (embedded)', () => {
  let browser: Browser;
  let app: EmbeddedApp;
  let dataDir: string;
  const users: User[] = [];
  const open = async (label: string, viewport?: { width: number; height: number }) => {
    const u = await User.open(browser, label, app.url);
    if (viewport) await u.page.setViewportSize(viewport);
    users.push(u);
    return u;
  };
  beforeAll(async () => {
    assertFrontendBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-pages-'));
    [app, browser] = await Promise.all([
      startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('e2e-pages', 'silent'), google: null }),
      launchBrowser(),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const u of users) await u.close();
    await browser?.close().catch(() => {});
    await app?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('each page: heading, tab title, its own meta description, indexable, the static header and links to / and /contact; axe clean', async () => {
    const u = await open('pages');
    const descriptions = new Set<string>();
    for (const p of PAGES) {
      const res = await u.goto(p.path);
      expect(res?.status(), p.path).toBe(200);
      expect(res?.headers()['x-robots-tag'], `${p.path} is for search engines`).toBeUndefined();
      await expectText(u.page.locator(`[data-testid="${p.testId}"] h1`), p.heading, `${p.path} heading`);
      await expect.poll(() => u.page.title(), { timeout: WAIT_MS }).toBe(p.title);
      const description = await meta(u, 'meta[name="description"]');
      expect(description, p.path).toMatch(/\S.{40,}/);
      expect(await meta(u, 'meta[property="og:title"]')).toBe(p.title);
      expect(await meta(u, 'meta[property="og:description"]')).toBe(description);
      descriptions.add(description!);
      expect(await u.page.locator('meta[name="robots"]').count(), p.path).toBe(0);
      const header = u.page.getByRole('navigation', { name: 'Main' });
      expect(await header.getByRole('link', { name: 'Pricing' }).getAttribute('href')).toBe('/upgrade');
      expect(await header.getByRole('link', { name: 'Create Room' }).getAttribute('href')).toBe('/');
      const main = u.page.getByRole('main');
      if (p.path !== '/contact')
        expect(await main.locator('a[href="/contact"]').count(), `${p.path} links to /contact`).toBeGreaterThan(0);
      expect(await u.page.locator('a[href="/"]').count(), `${p.path} links to /`).toBeGreaterThan(0);
      expect(await u.page.getByRole('heading', { level: 1 }).count(), `${p.path}: one h1`).toBe(1);
      expect(await seriousViolations(u.page), `axe on ${p.path}`).toEqual([]);
    }
    expect(descriptions.size, 'every page describes itself').toBe(PAGES.length);
    // the room page stays out of search engines (header and meta), and back on the landing page its own description returns
    const room = await u.goto(`/${uniqueRoomName('pages')}`);
    expect(room?.headers()['x-robots-tag']).toBe('noindex');
    await u.page.locator('meta[name="robots"][content="noindex"]').waitFor({ state: 'attached', timeout: WAIT_MS });
    await u.goto('/about');
    await u.byTestId('about-page').waitFor({ timeout: WAIT_MS });
    await u.page.getByRole('link', { name: 'Ephemera home' }).click();
    await u.byTestId('room-name-input').waitFor({ timeout: WAIT_MS });
    await expect
      .poll(() => meta(u, 'meta[name="description"]'), { timeout: WAIT_MS })
      .toMatch(/^Ephemera: instant, temporary group chat rooms/);
    expect(u.pageErrors).toEqual([]);
  });

  it("privacy states the spec's two statements and what is stored; features compares the plans from the entitlement table", async () => {
    const u = await open('content');
    await u.goto('/privacy');
    await expectText(
      u.byTestId('privacy-deletion'),
      'Personal data is removed within 30 days of account deletion.',
      'deletion statement',
    );
    await expectText(u.byTestId('privacy-children'), 'Ephemera is not for children under 13.', 'children statement');
    const privacy = (await u.byTestId('privacy-page').textContent()) ?? '';
    for (const fact of ['AES-256-GCM', 'key is destroyed', 'Stripe', 'contact form']) expect(privacy).toContain(fact);

    await u.goto('/features');
    const table = u.byTestId('plan-comparison');
    await table.waitFor({ timeout: WAIT_MS });
    const cells = (id: string) => u.byTestId(`plan-row-${id}`).locator('td').allTextContents();
    expect(await table.locator('thead th[scope="col"]').allTextContents()).toEqual([
      'Feature',
      'Free',
      'Pro',
      'Business',
    ]);
    expect(await cells('price')).toEqual(['$0', '$9/month', '$19/month']);
    expect(await cells('users')).toEqual(['5', '25', 'Unlimited']);
    expect(await cells('lifetime')).toEqual(['24 hours', '7 days', 'Permanent']);
    expect(await cells('file-size')).toEqual(['10 MB', '100 MB', '500 MB']);
    expect(await cells('video')).toEqual(['—Not included', '✓Included', '✓Included']);
    expect(await cells('branding')).toEqual(['—Not included', '—Not included', '✓Included']);
    expect(await u.byTestId('features-upgrade').getAttribute('href')).toBe('/upgrade');
  });

  it('contact: required fields, then Sending... and Message Sent!, stored without the newsletter box; Send Another Message resets', async () => {
    const u = await open('contact');
    const posts: Request[] = [];
    u.page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/contact') posts.push(r);
    });
    await u.goto('/contact');
    await u.byTestId('contact-form').waitFor({ timeout: WAIT_MS });

    await u.byTestId('contact-submit').click();
    await expectText(u.byTestId('contact-name-error'), CONTACT_TEXT.nameRequired, 'name required');
    await expectText(u.byTestId('contact-email-error'), CONTACT_TEXT.emailRequired, 'email required');
    await expectText(u.byTestId('contact-category-error'), CONTACT_TEXT.categoryRequired, 'subject required');
    await expectText(u.byTestId('contact-message-error'), CONTACT_TEXT.messageRequired, 'message required');
    expect(await u.page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    expect(await u.byTestId('contact-name').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(u.page), 'axe on the form with errors').toEqual([]);
    await u.byTestId('contact-name').fill('Ada Lovelace');
    await u.byTestId('contact-email').fill('not an address');
    await u.byTestId('contact-submit').click();
    await expectText(u.byTestId('contact-email-error'), CONTACT_TEXT.emailInvalid, 'email format');
    expect(await u.byTestId('contact-name-error').count()).toBe(0);
    expect(posts).toHaveLength(0); // nothing sent while the form is incomplete

    const email = `ada-${Date.now()}@example.test`;
    await u.byTestId('contact-email').fill(email);
    expect(
      await u
        .byTestId('contact-category')
        .locator('option')
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(['', 'general', 'support', 'billing', 'feature', 'bug', 'partnership', 'other']);
    await u.byTestId('contact-category').selectOption('feature');
    await u.byTestId('contact-message').fill('Please add a dark theme for the landing page.');
    await u.byTestId('contact-newsletter').check();
    // hold the request so the sending state can be seen
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await u.page.route('**/api/contact', async (route) => {
      await held;
      await route.continue();
    });
    await u.byTestId('contact-submit').click();
    await expectText(u.byTestId('contact-submit'), 'Sending...', 'sending state');
    expect(await u.byTestId('contact-submit').isDisabled()).toBe(true);
    release();
    await expectText(u.page.getByRole('heading', { level: 2, name: 'Message Sent!' }), 'Message Sent!', 'sent state');
    await u.page.unroute('**/api/contact');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]!.postData() ?? '{}')).toEqual({
      name: 'Ada Lovelace',
      email,
      category: 'feature',
      message: 'Please add a dark theme for the landing page.',
    });
    const stored = (await app.billing.contact.list()).find((m) => m.email === email);
    expect(stored).toMatchObject({
      name: 'Ada Lovelace',
      category: 'feature',
      message: 'Please add a dark theme for the landing page.',
      status: 'pending',
    });
    expect(await seriousViolations(u.page), 'axe on the sent state').toEqual([]);

    await u.byTestId('contact-again').click();
    await u.byTestId('contact-form').waitFor({ timeout: WAIT_MS });
    expect(await u.byTestId('contact-name').inputValue()).toBe('');
    expect(await u.byTestId('contact-email').inputValue()).toBe('');
    expect(await u.byTestId('contact-category').inputValue()).toBe('');
    expect(await u.byTestId('contact-message').inputValue()).toBe('');
    expect(await u.byTestId('contact-newsletter').isChecked()).toBe(false);
    await expectText(u.byTestId('contact-submit'), 'Send Message', 'editing again');
  });

  it('contact: a refusal says "Failed to send message. Please try again." and keeps what was typed', async () => {
    const u = await open('contact-fail');
    await u.goto('/contact');
    const fill = async (email: string) => {
      await u.byTestId('contact-name').fill('Grace');
      await u.byTestId('contact-email').fill(email);
      await u.byTestId('contact-category').selectOption('bug');
      await u.byTestId('contact-message').fill('Something broke');
    };
    // the server's own refusal: an address the browser lets through but the server does not (one-letter domain end)
    await fill('grace@example.c');
    await u.byTestId('contact-submit').click();
    await expectText(
      u.byTestId('contact-failed'),
      `${CONTACT_TEXT.failed}${CONTACT_TEXT.emailInvalid}`,
      'server refusal',
    );
    expect(await u.byTestId('contact-message').inputValue()).toBe('Something broke');
    // a server failure: the spec's text alone
    await u.page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"success":false,"code":"INTERNAL","message":"Internal error"}',
      }),
    );
    await u.byTestId('contact-email').fill('grace@example.com');
    await u.byTestId('contact-submit').click();
    await expect
      .poll(() => u.byTestId('contact-failed').textContent(), { timeout: WAIT_MS })
      .toBe('Failed to send message. Please try again.');
    await expectText(u.byTestId('contact-submit'), 'Send Message', 'editable again');
    expect(await u.byTestId('contact-name').inputValue()).toBe('Grace');
    expect(await u.page.getByRole('alert').count()).toBe(1);
    expect((await app.billing.contact.list()).some((m) => m.name === 'Grace')).toBe(false);
  });

  it('at 375 px every page fits the width (the plan table scrolls inside its frame)', async () => {
    const u = await open('mobile', { width: 375, height: 740 });
    for (const p of PAGES) {
      await u.goto(p.path);
      await u.byTestId(p.testId).waitFor({ timeout: WAIT_MS });
      const overflow = await u.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${p.path} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
    }
  });
});
