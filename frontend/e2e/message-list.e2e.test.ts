/**
 * The message list as a reader sees it, in a real browser against embedded mode (docs/product/messages.md M18-M20):
 * it sits at the newest message after an image loads (as it arrives, and after a reload), the jump-to-latest control
 * counts what arrived below and goes there, and a rename reaches reloaded history and a DM started afterwards.
 * Two browser contexts = two people (chat.setup.ts); bob also sends from a second connection of his own.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import sharp from 'sharp';
import type { Socket } from 'socket.io-client';
import { C } from '@ephemera/proto';
import { request, socketJoin } from '../../test/helpers/clients.ts';
import { expectText, WAIT_MS, type User } from './browser.ts';
import { startChatTarget, type ChatTarget } from './chat.setup.ts';

/** px between the bottom of what is shown and the bottom of the list */
const gap = (u: User) => u.byTestId('message-list').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

describe('browser: the message list (embedded)', () => {
  let target: ChatTarget | undefined;
  let bobSocket: Socket | undefined;
  let bobId = '';
  let general = '';
  let n = 0;
  const bobSends = async (content: string) => {
    const ack = await request(bobSocket!, C.sendMessage, {
      clientMessageId: `ml${Date.now().toString(36)}n${n++}`,
      channelId: general,
      content,
      type: 'text',
    });
    if (!ack.success) throw new Error(ack.message);
  };

  beforeAll(async () => {
    target = await startChatTarget();
    const { api, alice } = target;
    general = (await alice.page.locator('[data-testid="chat-area"]').getAttribute('data-channel-id'))!;
    const joined = await socketJoin(api.base, api.workspaceId, 'bob', api.bobToken);
    bobSocket = joined.socket;
    bobId = joined.ack.user.id as string;
  });

  afterAll(async () => {
    bobSocket?.close();
    await target?.stop();
  });

  it('M19: after an image loads the list sits at the newest message: as it arrives, and after a reload', async () => {
    const { alice, bob } = target!;
    // enough tall messages that the list scrolls
    for (let i = 1; i <= 12; i++) await bobSends(`filler ${i}${'\n.'.repeat(4)}`);
    await expect
      .poll(() => alice.page.locator('[data-testid="message-content"]', { hasText: /^filler 12/ }).count(), {
        timeout: WAIT_MS,
      })
      .toBe(1);

    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3b82f6' } })
      .png()
      .toBuffer();
    await alice.byTestId('composer-file-input').setInputFiles({ name: 'tall.png', mimeType: 'image/png', buffer: png });
    await alice.byTestId('upload-start').click();
    await alice.byTestId('file-upload-modal').waitFor({ state: 'detached' });

    for (const u of [bob, alice]) {
      const image = u.byTestId('attachment-image').locator('img');
      await image.waitFor({ timeout: WAIT_MS });
      await expect
        .poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), {
          timeout: WAIT_MS,
          message: `${u.label}'s image loads`,
        })
        .toBeGreaterThan(0);
      await expect
        .poll(() => gap(u), { timeout: 3000, message: `${u.label}: distance from the bottom once the image is in` })
        .toBeLessThan(3);
    }

    await bob.page.reload({ waitUntil: 'domcontentloaded' });
    await bob.page.locator('[data-testid="channel-title"]', { hasText: '# general' }).waitFor({ timeout: WAIT_MS });
    const image = bob.byTestId('attachment-image').locator('img');
    await image.waitFor({ timeout: WAIT_MS });
    await expect
      .poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), {
        timeout: WAIT_MS,
        message: 'the image loads after the reload',
      })
      .toBeGreaterThan(0);
    await expect
      .poll(() => gap(bob), { timeout: 3000, message: 'bob after the reload: distance from the bottom' })
      .toBeLessThan(3);
  });

  it('M19: scrolled up, Jump to latest shows the count of new messages below, and goes there', async () => {
    const { alice } = target!;
    const list = alice.byTestId('message-list');
    expect(await alice.byTestId('jump-to-latest').count()).toBe(0); // at the bottom
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    const jump = alice.byTestId('jump-to-latest');
    await jump.waitFor({ timeout: WAIT_MS });
    await expectText(jump, 'Jump to latest', 'nothing new yet');
    for (const text of ['one below', 'two below', 'three below']) await bobSends(text);
    await expectText(jump, '3 new messages', 'three arrived below');
    expect(await jump.getAttribute('aria-label')).toBe('Jump to latest: 3 new messages');
    expect(await list.evaluate((el) => el.scrollTop)).toBeLessThan(5); // the view did not move
    await jump.click();
    await expect.poll(() => gap(alice), { timeout: WAIT_MS, message: 'at the newest message' }).toBeLessThan(3);
    await jump.waitFor({ state: 'detached', timeout: WAIT_MS });
  });

  it("M18, M20: after a rename, reloaded history, a new DM's header, composer and introduction show the new name; no # in a DM", async () => {
    const { alice } = target!;
    const renamed = await request(bobSocket!, C.updateProfile, {
      workspaceId: target!.api.workspaceId,
      userId: bobId,
      username: 'robert',
    });
    if (!renamed.success) throw new Error(renamed.message);
    await bobSends('after the rename');
    await expect
      .poll(() => alice.page.locator('[data-testid="message-content"]', { hasText: /^after the rename$/ }).count(), {
        timeout: WAIT_MS,
      })
      .toBe(1);

    await alice.page.reload({ waitUntil: 'domcontentloaded' });
    await alice.page.locator('[data-testid="channel-title"]', { hasText: '# general' }).waitFor({ timeout: WAIT_MS });
    await expect
      .poll(async () => [...new Set((await alice.messageAuthors()).filter((a) => a !== 'alice'))], {
        timeout: WAIT_MS,
        message: 'authors in the reloaded history',
      })
      .toEqual(['robert']);

    await alice.page.locator('[data-testid="available-user"][data-username="robert"]').click();
    await alice.byTestId('start-dm-confirm').click();
    await alice.byTestId('start-dm-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
    await expectText(alice.byTestId('channel-title'), 'robert', 'the DM header');
    expect(await alice.byTestId('composer-textarea').getAttribute('placeholder')).toBe('Message robert');
    const intro = alice.byTestId('channel-intro');
    await expectText(intro.locator('h3'), 'robert', 'the DM introduction names the partner');
    expect(await intro.locator('p').textContent()).toBe(
      'No messages yet. Send robert a message to start your conversation.',
    );
    expect(await intro.getAttribute('data-kind')).toBe('dm');
  });

  it("M20: a new profile picture shows on the author's messages for others at once, and stays the owner's own after a reload", async () => {
    const { alice, bob } = target!;
    await alice.page.locator(`[data-testid="channel-row"][data-channel-id="${general}"]`).click();
    await bob.byTestId('edit-profile-button').click();
    const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#16a34a' } })
      .png()
      .toBuffer();
    await bob.byTestId('profile-picture-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await bob.byTestId('profile-save').click();
    await bob.byTestId('edit-profile-modal').waitFor({ state: 'detached' });
    const loaded = (img: ReturnType<User['byTestId']>) =>
      img.evaluate((i: HTMLImageElement) => i.naturalWidth).catch(() => 0);
    // on alice's page without a reload: beside bob's (robert's) messages
    const onMessage = alice.page.locator('[data-testid="message-item"][data-author="robert"] img.avatar-img').first();
    await expect
      .poll(() => loaded(onMessage), { timeout: WAIT_MS, message: 'alice sees the picture on his messages' })
      .toBeGreaterThan(0);
    // bob's own, after his reload
    await bob.page.reload({ waitUntil: 'domcontentloaded' });
    await bob.byTestId('room-view').waitFor({ timeout: WAIT_MS });
    const own = bob.byTestId('status-button').locator('img.avatar-img');
    await expect
      .poll(() => loaded(own), { timeout: WAIT_MS, message: "bob's own picture after his reload" })
      .toBeGreaterThan(0);
  });
});
