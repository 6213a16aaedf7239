/**
 * Browser plumbing for the end-to-end tests: Debian's Chromium driven by playwright-core (no browser download
 * on these machines), one "user" = one browser context with one page, and bounded waits on visible DOM.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Response } from 'playwright-core';
import { expect } from 'vitest';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FRONTEND_DIST = path.join(REPO_ROOT, 'frontend', 'dist');

/** Every wait on the page is bounded by this. */
export const WAIT_MS = 15_000;

export const CHROMIUM_PATH = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/**
 * The servers serve frontend/dist (or E2E_FRONTEND_DIST); without it every page is a 404 and the tests would fail
 * obscurely.
 */
export function assertFrontendBuilt(): void {
  const index = path.join(process.env.E2E_FRONTEND_DIST ?? FRONTEND_DIST, 'index.html');
  if (!fs.existsSync(index)) {
    throw new Error(
      `${index} is missing: build the frontend first with \`npm run build:frontend\` (npm test does it before vitest)`,
    );
  }
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (set E2E_CHROMIUM)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export interface CookieSpec {
  name: string;
  value: string;
  domain: string;
  path: string;
}

/** One person at one browser: a context of its own (own cookies and localStorage) with one page. */
export class User {
  /** every dialog (alert, confirm, prompt) the page opened; the XSS checks require none */
  readonly dialogs: string[] = [];
  /** uncaught exceptions in the page */
  readonly pageErrors: string[] = [];
  /** ephemera_gw values the servers set on /socket.io/ responses (the gateway replica that answered) */
  readonly gatewaySetCookies: string[] = [];
  /** websocket connections the page opened, with how they ended */
  readonly websockets: { url: string; error?: string; closed: boolean; framesReceived: number }[] = [];

  private constructor(
    readonly label: string,
    readonly base: string,
    readonly context: BrowserContext,
    readonly page: Page,
    /** the gateway replica that must serve this user's realtime connection, when the target pins one */
    readonly replica: string | undefined,
  ) {
    page.on('dialog', (d) => {
      this.dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss().catch(() => {});
    });
    page.on('websocket', (ws) => {
      const rec: User['websockets'][number] = { url: ws.url(), closed: false, framesReceived: 0 };
      this.websockets.push(rec);
      ws.on('framereceived', () => {
        rec.framesReceived += 1;
      });
      ws.on('socketerror', (e) => {
        rec.error = String(e);
      });
      ws.on('close', () => {
        rec.closed = true;
      });
    });
    page.on('pageerror', (e) => this.pageErrors.push(String(e?.stack ?? e)));
    page.on('response', (r) => {
      if (!new URL(r.url()).pathname.startsWith('/socket.io/')) return;
      void r
        .headerValue('set-cookie')
        .then((v) => {
          const m = v && /(?:^|\n|,\s*)ephemera_gw=([^;]+)/.exec(v);
          if (m) this.gatewaySetCookies.push(decodeURIComponent(m[1]!));
        })
        .catch(() => {});
    });
  }

  /** phone: a 375 px touch screen (no hover, coarse pointer), as a phone's browser reports itself */
  static async open(
    browser: Browser,
    label: string,
    base: string,
    cookies: CookieSpec[] = [],
    replica?: string,
    phone = false,
  ): Promise<User> {
    const context = await browser.newContext(
      phone
        ? { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, baseURL: base }
        : { viewport: { width: 1280, height: 800 }, baseURL: base },
    );
    if (cookies.length) await context.addCookies(cookies);
    // Content-Security-Policy violations (a blocked inline handler or script = something got injected)
    await context.addInitScript(() => {
      const w = window as unknown as { __cspViolations: string[] };
      w.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        w.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sample}`);
      });
    });
    context.setDefaultTimeout(WAIT_MS);
    context.setDefaultNavigationTimeout(WAIT_MS);
    const page = await context.newPage();
    return new User(label, base, context, page, replica);
  }

  goto(p: string): Promise<Response | null> {
    return this.page.goto(new URL(p, this.base).toString(), { waitUntil: 'domcontentloaded' });
  }

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  /**
   * Open the room as a member whose join answer is already known: the stored auth record (kept across reloads unless
   * the page itself changed it) makes the page join directly, as after a real join; resolves once the room shows.
   */
  async enterRoom(auth: { workspaceId: string; userToken: string; username: string; roomName: string }): Promise<void> {
    const record = JSON.stringify({ ...auth, password: null });
    await this.context.addInitScript((r) => {
      if (!localStorage.getItem('ephemera.auth')) localStorage.setItem('ephemera.auth', r);
    }, record);
    await this.goto(`/${auth.roomName}`);
    await this.byTestId('room-view').waitFor({ timeout: WAIT_MS });
  }

  /** The ephemera_gw cookies the browser holds for the socket path (normally exactly one). */
  async gatewayCookies(): Promise<string[]> {
    const cookies = await this.context.cookies(new URL('/socket.io/', this.base).toString());
    return cookies.filter((c) => c.name === 'ephemera_gw').map((c) => c.value);
  }

  /** Text of every message bubble in the open channel, top to bottom. */
  messageTexts(): Promise<string[]> {
    return this.byTestId('message-content').allTextContents();
  }

  /** Author of every message in the open channel, top to bottom (from the rendered items). */
  messageAuthors(): Promise<string[]> {
    return this.page
      .locator('[data-testid="message-item"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-author') ?? ''));
  }

  async waitForMessages(expected: string[]): Promise<void> {
    await expect
      .poll(() => this.messageTexts(), { timeout: WAIT_MS, interval: 100, message: `${this.label}'s message list` })
      .toEqual(expected);
  }

  /** Type into the composer and press Enter, as a person does. */
  async send(text: string): Promise<void> {
    const box = this.byTestId('composer-textarea');
    await box.fill(text);
    await box.press('Enter');
    await expect
      .poll(() => box.inputValue(), { timeout: WAIT_MS, message: `${this.label}'s composer clears after sending` })
      .toBe('');
  }

  /** CSP violations the current document reported so far */
  cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => {});
  }
}

/**
 * What a part of the page says: its text (as written, before CSS changes its case) and the labels of it and of every
 * element in it (aria-label, title, placeholder, alt): what the language checks compare with the catalogs.
 */
export const saidBy = (part: Locator): Promise<string> =>
  part.evaluate((root) => {
    const said = [root.textContent ?? ''];
    for (const el of [root, ...root.querySelectorAll('*')])
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(attr);
        if (value) said.push(value);
      }
    return said.join('\n');
  });

/** Visible text of a locator, whitespace-normalised, once it is visible. */
/** A touch swipe left-to-right of 70 px across a row (the spec's 50 px threshold), as pointer events. */
export async function swipeRight(row: Locator): Promise<void> {
  const box = (await row.boundingBox())!;
  await row.evaluate(
    (el, { x, y }) => {
      const fire = (type: string, clientX: number) =>
        el.dispatchEvent(
          new PointerEvent(type, {
            bubbles: true,
            pointerType: 'touch',
            pointerId: 7,
            clientX,
            clientY: y,
            isPrimary: true,
          }),
        );
      fire('pointerdown', x);
      fire('pointermove', x + 30);
      fire('pointermove', x + 70);
      fire('pointerup', x + 70);
    },
    { x: box.x + 20, y: box.y + box.height / 2 },
  );
}

export async function textOf(locator: Locator): Promise<string> {
  await locator.waitFor({ state: 'visible', timeout: WAIT_MS });
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** Waits until the locator's visible text equals (string) or matches (RegExp) the expectation. */
export async function expectText(locator: Locator, expected: string | RegExp, what: string): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout: WAIT_MS });
  const poll = expect.poll(async () => ((await locator.first().textContent()) ?? '').replace(/\s+/g, ' ').trim(), {
    timeout: WAIT_MS,
    interval: 100,
    message: what,
  });
  if (typeof expected === 'string') await poll.toBe(expected);
  else await poll.toMatch(expected);
}

let counter = 0;
/** Room names allow letters, numbers, hyphens and underscores (max 50). */
export function uniqueRoomName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${process.pid.toString(36)}${(counter++).toString(36)}`;
}
