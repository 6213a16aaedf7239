/**
 * Files the way people send them, in real browsers (docs/product/files.md F12): alice drops an image on the chat
 * (a synthetic drop with a DataTransfer; the drop zone shows while it is dragged over), pastes an image into the
 * composer, and picks three files at once; each shows its own progress bar and reaches bob, on the other replica
 * when distributed. Cancel aborts an upload in flight and nothing is posted; an upload whose request fails at the
 * network stays with Retry, and Retry sends it. Embedded mode, and distributed mode (files in S3 behind nginx).
 */
import { describe, it, expect } from 'vitest';
import { type Page } from 'playwright-core';
import sharp from 'sharp';
import { User, WAIT_MS } from './browser.ts';
import { embedded, distributed, filesSuite, type FilesTarget } from './files.targets.ts';

interface PageFile {
  name: string;
  type: string;
  b64: string;
}

/** Files built in the page from their bytes, kept as window.__files for the events that follow. */
async function filesInPage(page: Page, files: PageFile[]) {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    (window as unknown as { __files: DataTransfer }).__files = dt;
  }, files);
}

/** Drag events on the chat, as the browser sends them when files are dragged from the desktop. */
async function drag(page: Page, types: ('dragenter' | 'dragover' | 'drop')[]) {
  await page.evaluate((events) => {
    const dataTransfer = (window as unknown as { __files: DataTransfer }).__files;
    const target = document.querySelector('[data-testid="chat-area"] [data-testid="composer-textarea"]')!;
    for (const type of events)
      target.dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, cancelable: true }));
  }, types);
}

/** Hold every upload at the network for a while, so its progress bar and Cancel can be seen. */
async function holdUploads(page: Page, ms: number) {
  await page.route('**/api/workspaces/*/files', async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue().catch(() => {});
  });
}

function registerScenario(label: string, start: () => Promise<FilesTarget>) {
  describe(`browser: dropped, pasted and several files (${label})`, () => {
    const suite = filesSuite(start);

    it('drop, paste and several at once upload with progress; cancel posts nothing; a network failure retries', async () => {
      const { alice, bob } = await suite.room();
      const png = (
        await sharp({ create: { width: 64, height: 48, channels: 3, background: '#36c' } })
          .png()
          .toBuffer()
      ).toString('base64');
      const image = (name: string): PageFile => ({ name, type: 'image/png', b64: png });
      // a file message without a caption shows the file: an image by its alt text, a document by its name
      const fileMessage = (u: User, name: string) =>
        u.page.locator(
          `[data-testid="attachment-image"] img[alt="${name}"], [data-testid="attachment-file"]:has-text("${name}")`,
        );
      const bobSees = (name: string) => fileMessage(bob, name).first().waitFor({ timeout: WAIT_MS });
      const progressShown = () =>
        alice
          .byTestId('upload-item-progress')
          .first()
          .waitFor({ state: 'attached', timeout: WAIT_MS })
          .then(
            () => true,
            () => false,
          );

      // dropped: the drop zone shows while dragging, the file uploads with its progress bar and reaches bob
      await holdUploads(alice.page, 1000);
      await filesInPage(alice.page, [image('dropped.png')]);
      await drag(alice.page, ['dragenter', 'dragover']);
      await alice.byTestId('file-drop-zone').waitFor();
      let progress = progressShown();
      await drag(alice.page, ['drop']);
      await alice.byTestId('file-drop-zone').waitFor({ state: 'detached' });
      expect(await progress).toBe(true);
      await bobSees('dropped.png');
      await alice.byTestId('upload-tray').waitFor({ state: 'detached' });

      // pasted into the composer
      await filesInPage(alice.page, [image('pasted.png')]);
      progress = progressShown();
      await alice.page.evaluate(() => {
        const clipboardData = (window as unknown as { __files: DataTransfer }).__files;
        const box = document.querySelector('[data-testid="composer-textarea"]')!;
        box.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
      });
      expect(await progress).toBe(true);
      await bobSees('pasted.png');

      // three at once from the picker: three rows, three messages
      await alice.byTestId('composer-file-input').setInputFiles([
        { name: 'one.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') },
        { name: 'two.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('three files at once\n') },
      ]);
      await expect.poll(() => alice.byTestId('upload-item').count(), { timeout: WAIT_MS }).toBe(3);
      for (const name of ['one.png', 'two.png', 'notes.txt']) await bobSees(name);
      await alice.byTestId('upload-tray').waitFor({ state: 'detached' });

      // cancelled in flight: the row goes, nothing is posted
      await alice.page.unroute('**/api/workspaces/*/files');
      await holdUploads(alice.page, 3000);
      await filesInPage(alice.page, [image('cancelled.png')]);
      await drag(alice.page, ['dragenter', 'dragover', 'drop']);
      await alice.byTestId('upload-item-cancel').click();
      await alice.byTestId('upload-tray').waitFor({ state: 'detached' });
      await alice.page.unroute('**/api/workspaces/*/files');
      await alice.page.waitForTimeout(3500);
      const posted = (name: string) => fileMessage(bob, name).count();
      expect(await posted('cancelled.png')).toBe(0);
      expect(await fileMessage(alice, 'cancelled.png').count()).toBe(0);

      // the network fails: the row stays with its text and Retry; Retry sends it
      await alice.page.route('**/api/workspaces/*/files', (route) => route.abort('failed'));
      await filesInPage(alice.page, [image('retried.png')]);
      await drag(alice.page, ['dragenter', 'dragover', 'drop']);
      await alice.byTestId('upload-item-retry').waitFor({ timeout: WAIT_MS });
      expect(await alice.byTestId('upload-item-error').textContent()).toBe('Error uploading file');
      expect(await posted('retried.png')).toBe(0);
      await alice.page.unroute('**/api/workspaces/*/files');
      await alice.byTestId('upload-item-retry').click();
      await bobSees('retried.png');
      await alice.byTestId('upload-tray').waitFor({ state: 'detached' });
      expect(await posted('retried.png')).toBe(1);

      expect(alice.pageErrors).toEqual([]);
      expect(await bob.cspViolations()).toEqual([]);
    }, 120_000);
  });
}

registerScenario('embedded', embedded);
registerScenario('distributed, alice and bob on different gateway replicas, files in S3', distributed);
