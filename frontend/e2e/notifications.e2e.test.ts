/**
 * Desktop notifications in a real browser (docs/product/notifications.md): Chromium's notification permission is
 * granted to alice's context, alice turns notifications on from the sidebar's control, and her tab is made hidden
 * (document.visibilityState overridden by an init script; window.Notification wrapped to record what the page
 * shows). Bob, on the other replica when distributed, sends her a direct message with Markdown: a notification
 * titled with his name shows its plain text. A mention of alice in #general shows one too; a message that mentions
 * nobody does not. Once alice chooses Busy, bob's next direct message shows none. Embedded and distributed modes.
 */
import { describe, it, expect } from 'vitest';
import { WAIT_MS } from './browser.ts';
import { embedded, distributed, filesSuite, type FilesTarget } from './files.targets.ts';

interface Shown {
  title: string;
  body: string;
  silent: boolean;
}

/** In alice's page before any script: a recording Notification and a visibility the test sets. */
function instrument() {
  const shown: Shown[] = [];
  const w = window as unknown as { __shown: Shown[]; __setHidden(h: boolean): void; Notification: unknown };
  w.__shown = shown;
  const Real = window.Notification;
  function Recorded(title: string, options?: NotificationOptions) {
    shown.push({ title, body: options?.body ?? '', silent: Boolean(options?.silent) });
    return new Real(title, options);
  }
  Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
  (Recorded as unknown as { requestPermission: unknown }).requestPermission = () => Real.requestPermission();
  w.Notification = Recorded;
  let hidden = false;
  Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { get: () => hidden });
  w.__setHidden = (h: boolean) => {
    hidden = h;
    document.dispatchEvent(new Event('visibilitychange'));
  };
}

function registerScenario(label: string, start: () => Promise<FilesTarget>) {
  describe(`browser: desktop notifications (${label})`, () => {
    const suite = filesSuite(start);

    it('a DM and a mention notify a hidden tab with plain text; nothing else, nothing while Busy', async () => {
      const { alice, bob, dmId, generalId } = await suite.room({
        dm: true,
        beforeEnter: async (u) => {
          if (u.label !== 'alice') return;
          await u.context.grantPermissions(['notifications']);
          await u.page.addInitScript(instrument);
        },
      });
      const shown = () => alice.page.evaluate(() => (window as unknown as { __shown: Shown[] }).__shown);
      const setHidden = (hidden: boolean) =>
        alice.page.evaluate((h) => (window as unknown as { __setHidden(h: boolean): void }).__setHidden(h), hidden);
      const bobSends = async (channelId: string, text: string) => {
        await bob.page.locator(`[data-channel-id="${channelId}"]`).first().click();
        await bob.byTestId('composer-textarea').fill(text);
        await bob.page.keyboard.press('Enter');
        await bob
          .byTestId('message-content')
          .filter({ hasText: text.replace(/\*/g, '') })
          .first()
          .waitFor();
      };

      // off until turned on from the control (permission is asked there, never on load)
      const toggle = alice.byTestId('notification-toggle');
      expect(await toggle.getAttribute('data-state')).toBe('off');
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('data-state'), { timeout: WAIT_MS }).toBe('on');
      await setHidden(true);

      await bobSends(dmId, 'are you **there**?');
      await expect.poll(shown, { timeout: WAIT_MS }).toEqual([{ title: 'bob', body: 'are you there?', silent: false }]);

      await bobSends(generalId, 'nobody in particular');
      await bobSends(generalId, 'look at this @alice');
      await expect.poll(shown, { timeout: WAIT_MS }).toHaveLength(2);
      expect((await shown())[1]).toEqual({ title: 'bob in #general', body: 'look at this @alice', silent: false });

      // Busy: nothing more
      await setHidden(false);
      await alice.byTestId('status-button').click();
      await alice.byTestId('status-busy').click();
      await expect
        .poll(() => alice.byTestId('status-button').getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('busy');
      await setHidden(true);
      await bobSends(dmId, 'still there?');
      // it reached alice (her sidebar's preview), and a moment later still no notification
      await alice.byTestId('channel-preview').filter({ hasText: 'still there?' }).first().waitFor();
      await alice.page.waitForTimeout(1500);
      expect(await shown()).toHaveLength(2);
      expect(alice.pageErrors).toEqual([]);
    }, 120_000);
  });
}

registerScenario('embedded', embedded);
registerScenario('distributed, alice and bob on different gateway replicas', distributed);
