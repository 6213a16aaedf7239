/**
 * The installable app in a real browser (docs/product/install.md): Chromium finds the manifest and reports no
 * installability error, the manifest's icons are PNGs of the sizes it names, the service worker takes control
 * after load and its cache holds the build's shell files only: after alice and bob chat in a room, no API answer,
 * realtime frame or file is in it. The worker and the manifest are sent to be revalidated on every load. Offline,
 * a reload still starts the app from the stored shell. Embedded mode, and distributed mode (nginx serves the build).
 */
import { describe, it, expect } from 'vitest';
import sharp from 'sharp';
import { User, WAIT_MS } from './browser.ts';
import { embedded, distributed, filesSuite, type FilesTarget } from './files.targets.ts';

interface Manifest {
  name: string;
  start_url: string;
  display: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

function registerScenario(label: string, start: () => Promise<FilesTarget>) {
  describe(`browser: the installable app (${label})`, () => {
    const suite = filesSuite(start);

    it('installable, a worker that stores the shell only, revalidated worker and manifest, works offline', async () => {
      const base = suite.base();
      const worker = await fetch(`${base}/sw.js`);
      expect(worker.status).toBe(200);
      expect(worker.headers.get('content-type')).toMatch(/javascript/);
      expect(worker.headers.get('cache-control')).toBe('no-cache');
      const manifestAnswer = await fetch(`${base}/manifest.webmanifest`);
      expect(manifestAnswer.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
      expect(manifestAnswer.headers.get('cache-control')).toBe('no-cache');
      const manifest = (await manifestAnswer.json()) as Manifest;
      expect(manifest).toMatchObject({ name: 'Ephemera', start_url: '/', display: 'standalone' });
      for (const icon of manifest.icons) {
        const png = Buffer.from(await (await fetch(`${base}${icon.src}`)).arrayBuffer());
        const meta = await sharp(png).metadata();
        expect(`${meta.format} ${meta.width}x${meta.height}`, icon.src).toBe(`png ${icon.sizes}`);
      }
      expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
        expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
      );

      const { alice, bob } = await suite.room();
      // Chromium's own verdict: the manifest it found and why the app could not be installed (nothing)
      const cdp = await alice.context.newCDPSession(alice.page);
      const found = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
      expect(found.url).toBe(`${base}/manifest.webmanifest`);
      expect(found.errors).toEqual([]);
      const scope = await alice.page.evaluate(() =>
        navigator.serviceWorker.ready.then((r) => r.active?.scriptURL ?? null),
      );
      expect(scope).toBe(`${base}/sw.js`);
      // a test context is an incognito one, which Chromium never installs from: every other reason counts
      const installErrors = async () =>
        (
          (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }
        ).installabilityErrors
          .map((e) => e.errorId)
          .filter((id) => id !== 'in-incognito');
      await expect.poll(installErrors, { timeout: WAIT_MS }).toEqual([]);

      // chat through the worker: a message each way
      await alice.byTestId('composer-textarea').fill('hello through the worker');
      await alice.page.keyboard.press('Enter');
      await bob.byTestId('message-content').getByText('hello through the worker').first().waitFor();
      await bob.byTestId('composer-textarea').fill('and back');
      await bob.page.keyboard.press('Enter');
      await alice.byTestId('message-content').getByText('and back').first().waitFor();

      const cached = async (u: User) =>
        u.page.evaluate(async () => {
          const names = await caches.keys();
          const urls: string[] = [];
          for (const name of names)
            for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
          return { names, urls };
        });
      const { names, urls } = await cached(alice);
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^ephemera-shell-[0-9a-f]{12}$/);
      expect(urls).toEqual(expect.arrayContaining(['/index.html', '/room.html', '/manifest.webmanifest']));
      expect(urls.some((u) => /^\/assets\/index-.*\.js$/.test(u))).toBe(true);
      // the shell only: HTML pages, the build's assets, icons, the manifest; never an API answer, socket or file
      for (const u of urls)
        expect(u).toMatch(/^\/(?:[a-z]+\.html|assets\/[^/]+|icons\/[^/]+\.png|manifest\.webmanifest)$/);

      // offline: a reload starts the app from the stored shell
      await alice.context.setOffline(true);
      await alice.page.reload({ waitUntil: 'domcontentloaded' });
      await alice.page.locator('#root > *').first().waitFor({ timeout: WAIT_MS });
      await alice.context.setOffline(false);
      expect(alice.pageErrors).toEqual([]);
    }, 120_000);
  });
}

registerScenario('embedded', embedded);
registerScenario('distributed, alice and bob on different gateway replicas', distributed);
