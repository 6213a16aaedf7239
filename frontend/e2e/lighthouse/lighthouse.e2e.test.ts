/**
 * Lighthouse over every public page, the room's entry page and the room itself, on its mobile preset (a mid-range
 * phone on a slow 4G link, simulated) and its desktop preset, against embedded mode as `npm start` serves it. The
 * floors are docs/product/performance.md PF25: performance >= 90 on mobile and >= 95 on desktop, accessibility and
 * best practices >= 95 on both.
 *
 * The scores are computed by Lighthouse's simulation from a trace of the page's own work, so CPU taken by other
 * programs inflates them: vitest.config.ts runs this file in its own project after every other file has finished.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { chromium, type BrowserContext } from 'playwright-core';
import lighthouse, { desktopConfig } from 'lighthouse';
import { createLogger } from '@ephemera/platform';
import { INDEXED_PAGES } from '@ephemera/proto/client';
import { startEmbedded } from '../../../services/embedded/app.ts';
import { assertFrontendBuilt, CHROMIUM_PATH, uniqueRoomName, WAIT_MS } from '../browser.ts';
import { freePort } from '../../../deploy/local/infra.ts';

const FLOORS = {
  mobile: { performance: 0.9, accessibility: 0.95, 'best-practices': 0.95 },
  desktop: { performance: 0.95, accessibility: 0.95, 'best-practices': 0.95 },
} as const;
type Preset = keyof typeof FLOORS;
type Category = keyof (typeof FLOORS)['mobile'];
const CATEGORIES = Object.keys(FLOORS.mobile) as Category[];

describe('Lighthouse scores', () => {
  let app: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  let context: BrowserContext | undefined;
  let port = 0;
  let dataDir = '';
  let profileDir = '';
  const room = uniqueRoomName('lh');

  beforeAll(async () => {
    assertFrontendBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-lighthouse-'));
    profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-lighthouse-profile-'));
    app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('e2e', 'silent') });
    port = await freePort();
    // A persistent profile: Lighthouse opens its tab in this default context, so the room's session saved by the
    // join below is there when it loads the room page (it keeps storage: disableStorageReset).
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [`--remote-debugging-port=${port}`, '--no-sandbox'],
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await app?.stop().catch(() => {});
    for (const dir of [dataDir, profileDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function scores(url: string, preset: Preset, keepStorage: boolean): Promise<Record<Category, number>> {
    const result = await lighthouse(
      url,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
        disableStorageReset: keepStorage,
      },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    const categories = result?.lhr.categories;
    expect(categories, `Lighthouse ran on ${url} (${preset})`).toBeDefined();
    return Object.fromEntries(CATEGORIES.map((c) => [c, categories![c]?.score ?? 0])) as Record<Category, number>;
  }

  function expectFloors(what: string, preset: Preset, got: Record<Category, number>): void {
    const below = CATEGORIES.filter((c) => got[c] < FLOORS[preset][c]).map(
      (c) => `${c} ${got[c]} < ${FLOORS[preset][c]}`,
    );
    expect(below, `${what} on ${preset}: ${JSON.stringify(got)}`).toEqual([]);
  }

  const publicPages = ['/', ...INDEXED_PAGES.filter((p) => p !== '/')];
  for (const preset of ['mobile', 'desktop'] as const) {
    it(`every public page (${publicPages.join(', ')}) on ${preset}`, async () => {
      for (const page of publicPages) expectFloors(page, preset, await scores(`${app!.url}${page}`, preset, false));
    }, 600_000);

    it(`the room's entry page (the join form) on ${preset}`, async () => {
      expectFloors(`/${room}-entry`, preset, await scores(`${app!.url}/${room}-entry`, preset, false));
    }, 180_000);
  }

  it('the room page, joined, on both presets', async () => {
    const page = await context!.newPage();
    await page.goto(`${app!.url}/${room}`);
    await page.locator('[data-testid="username-input"]').fill('lighthouse');
    await page.locator('[data-testid="overlay-submit"]').click();
    await page.locator('[data-testid="composer-textarea"]').waitFor({ timeout: WAIT_MS });
    await page.close();
    for (const preset of ['mobile', 'desktop'] as const) {
      expectFloors(`/${room} (joined)`, preset, await scores(`${app!.url}/${room}`, preset, true));
    }
  }, 300_000);
});
