/**
 * The chat's message features in a real browser against embedded mode (docs/product/messages.md M1-M17):
 * reply, inline edit, delete, reactions (toggle, move, full picker), typing seen by the other user, link preview
 * from a local page, list grouping and scrolling, delivery marks, the DM header. Two browser contexts = two people;
 * assertions are on what each one sees. Setup and helpers: chat.setup.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { C } from '@ephemera/proto';
import { request, socketJoin } from '../../test/helpers/clients.ts';
import { expectText, WAIT_MS } from './browser.ts';
import {
  messageRow,
  menuItems,
  openMenu,
  OG_DESCRIPTION,
  OG_TITLE,
  pollChips,
  react,
  startChatTarget,
  type ChatTarget,
} from './chat.setup.ts';

describe('browser: chat features (embedded)', () => {
  let target: ChatTarget | undefined;
  const users = () => {
    if (!target) throw new Error('setup failed; see beforeAll');
    return { a: target.alice, b: target.bob };
  };

  beforeAll(async () => {
    target = await startChatTarget();
  });

  afterAll(async () => {
    await target?.stop();
  });

  it("actions: Reply and Copy on the other's message, Edit and Delete on my own; reply bar, quote from the stored message", async () => {
    const { a, b } = users();
    await a.send('Hello Bob');
    await b.waitForMessages(['Hello Bob']);

    await openMenu(b, messageRow(b, 'Hello Bob'));
    expect(await menuItems(b)).toEqual(['Reply', 'Copy']);
    await openMenu(a, messageRow(a, 'Hello Bob'));
    expect(await menuItems(a)).toEqual(['Edit', 'Delete']);

    // Copy puts the message text on the clipboard
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.base });
    await openMenu(b, messageRow(b, 'Hello Bob'));
    await b.page.getByTestId('action-copy').click();
    await expect
      .poll(() => b.page.evaluate(() => navigator.clipboard.readText()), { timeout: WAIT_MS, message: 'clipboard' })
      .toBe('Hello Bob');

    await openMenu(b, messageRow(b, 'Hello Bob'));
    await b.page.getByTestId('action-reply').click();
    await expectText(b.byTestId('reply-bar-title'), 'Replying to alice', 'reply bar');
    // cancel, then reply again for real
    await b.byTestId('reply-cancel').click();
    await b.byTestId('reply-bar').waitFor({ state: 'detached', timeout: WAIT_MS });
    await openMenu(b, messageRow(b, 'Hello Bob'));
    await b.page.getByTestId('action-reply').click();
    await b.send('Hi back');
    await b.byTestId('reply-bar').waitFor({ state: 'detached', timeout: WAIT_MS });

    for (const u of [a, b]) {
      await u.waitForMessages(['Hello Bob', 'Hi back']);
      const reply = messageRow(u, 'Hi back');
      await expectText(reply.getByTestId('reply-quote-author'), 'alice', `${u.label} sees the quoted author`);
      await expectText(reply.getByTestId('reply-quote-text'), 'Hello Bob', `${u.label} sees the quoted text`);
    }
  });

  it('inline edit: Escape cancels, an empty edit is not saved, Enter saves and both see "(edited)"', async () => {
    const { a, b } = users();
    const row = messageRow(a, 'Hello Bob');
    await openMenu(a, row);
    await a.page.getByTestId('action-edit').click();
    await a.byTestId('edit-input').fill('never saved');
    await a.byTestId('edit-input').press('Escape');
    await a.byTestId('edit-input').waitFor({ state: 'detached', timeout: WAIT_MS });
    await openMenu(a, row);
    await a.page.getByTestId('action-edit').click();
    await a.byTestId('edit-input').fill('   ');
    await a.byTestId('edit-input').press('Enter');
    await a.byTestId('edit-input').waitFor({ state: 'detached', timeout: WAIT_MS });
    expect(await row.getByTestId('edited-mark').count()).toBe(0);

    await openMenu(a, row);
    await a.page.getByTestId('action-edit').click();
    await a.byTestId('edit-input').fill('Hello Bob, edited');
    await a.byTestId('edit-input').press('Enter');
    for (const u of [a, b]) {
      await u.waitForMessages(['Hello Bob, edited', 'Hi back']);
      await expectText(
        messageRow(u, 'Hello Bob, edited').getByTestId('edited-mark'),
        '(edited)',
        `${u.label} sees the edit mark`,
      );
    }
    // blur saves too
    const edited = messageRow(a, 'Hello Bob, edited');
    await openMenu(a, edited);
    await a.page.getByTestId('action-edit').click();
    await a.byTestId('edit-input').fill('Hello Bob, edited twice');
    await a.byTestId('composer-textarea').click();
    await b.waitForMessages(['Hello Bob, edited twice', 'Hi back']);
  });

  it('delete: the author deletes a message and it disappears for both', async () => {
    const { a, b } = users();
    await a.send('to be deleted');
    await b.waitForMessages(['Hello Bob, edited twice', 'Hi back', 'to be deleted']);
    await openMenu(a, messageRow(a, 'to be deleted'));
    await a.page.getByTestId('action-delete').click();
    await a.waitForMessages(['Hello Bob, edited twice', 'Hi back']);
    await b.waitForMessages(['Hello Bob, edited twice', 'Hi back']);
    expect(a.dialogs).toEqual([]);
  });

  it('reactions: add, move, a second user, toggle off, and the full picker; both converge', async () => {
    const { a, b } = users();
    const onA = messageRow(a, 'Hi back');
    const onB = messageRow(b, 'Hi back');
    await react(a, onA, '👍');
    await pollChips(onA, ['👍 1*'], 'A after 👍');
    await pollChips(onB, ['👍 1'], "B sees A's 👍");
    await react(a, onA, '❤️'); // another emoji moves my reaction
    await pollChips(onA, ['❤️ 1*'], 'A after moving to ❤️');
    await pollChips(onB, ['❤️ 1'], 'B sees the move');
    await onB.locator('[data-testid="reaction-chip"][data-emoji="❤️"]').click(); // B joins ❤️
    await pollChips(onB, ['❤️ 2*'], 'B after joining ❤️');
    await pollChips(onA, ['❤️ 2*'], 'A sees two');
    await onA.locator('[data-testid="reaction-chip"][data-emoji="❤️"]').click(); // the same emoji again removes mine
    await pollChips(onA, ['❤️ 1'], 'A after toggling off');
    await pollChips(onB, ['❤️ 1*'], 'B sees one left');

    // the full picker loads on demand, under the page's CSP, and its choice is a reaction
    await onA.hover();
    await onA.getByTestId('react-button').click();
    await a.page.getByTestId('more-emoji').click();
    await a.page.getByTestId('emoji-search').fill('rocket');
    await a.page.getByTestId('emoji-picker').locator('[data-testid="emoji-option"][aria-label="Rocket"]').click();
    await pollChips(onA, ['❤️ 1', '🚀 1*'], 'A after the picker');
    await pollChips(onB, ['❤️ 1*', '🚀 1'], 'B sees the picked emoji');
    // nothing blocked by the CSP (zod's startup probe `Function('')`, reported as "eval", is the known exception)
    expect((await a.cspViolations()).filter((v) => !/^script-src(-elem)?: eval\b/.test(v))).toEqual([]);
  });

  it('typing: B sees "alice is typing..." while A types, and it goes when A empties the box', async () => {
    const { a, b } = users();
    const indicator = b.page.locator('[data-testid="typing-indicator"][data-active="true"]');
    await a.byTestId('composer-textarea').fill('I am typ');
    await expectText(b.byTestId('typing-text'), 'alice is typing...', 'B sees A typing');
    expect(await a.page.locator('[data-testid="typing-indicator"][data-active="true"]').count()).toBe(0); // not my own
    await a.byTestId('composer-textarea').fill('');
    await indicator.waitFor({ state: 'detached', timeout: WAIT_MS });
    // and it stops by itself after 2 s without typing
    await b.byTestId('composer-textarea').fill('hmm');
    await expectText(a.byTestId('typing-text'), 'bob is typing...', 'A sees B typing');
    await a.page
      .locator('[data-testid="typing-indicator"][data-active="true"]')
      .waitFor({ state: 'detached', timeout: WAIT_MS });
    await b.byTestId('composer-textarea').fill('');
  });

  it('link preview: a local page previewed under the composer after a pause, sent with the message, rendered as text for both', async () => {
    const { a, b } = users();
    const url = `http://${target!.pageHost}/article`;
    const previewRequests: string[] = [];
    const onRequest = (r: { url(): string; method(): string; headers(): Record<string, string> }) => {
      if (new URL(r.url()).pathname === '/api/link-preview/fetch')
        previewRequests.push(`${r.method()} ${r.headers().authorization ? 'bearer' : 'anonymous'}`);
    };
    a.page.on('request', onRequest);
    // typed key by key (under the 1 s pause): one request, for the whole address, once the typing stops
    const box = a.byTestId('composer-textarea');
    await box.fill('have a look ');
    await box.pressSequentially(url, { delay: 60 });
    expect(previewRequests).toEqual([]);
    const draftCard = a.byTestId('composer-link-preview');
    await expectText(draftCard.getByTestId('link-preview-title'), OG_TITLE, 'draft preview title');
    expect(previewRequests).toEqual(['POST bearer']);
    a.page.off('request', onRequest);
    await a.byTestId('composer-textarea').press('Enter');
    await draftCard.waitFor({ state: 'detached', timeout: WAIT_MS });
    for (const u of [a, b]) {
      const row = messageRow(u, `have a look ${url}`);
      const card = row.getByTestId('message-link-preview');
      await expectText(card.getByTestId('link-preview-title'), OG_TITLE, `${u.label} sees the preview title`);
      await expectText(card.getByTestId('link-preview-description'), OG_DESCRIPTION, `${u.label} sees the description`);
      await expectText(card.getByTestId('link-preview-site'), 'Test Site', `${u.label} sees the site`);
      expect(await card.locator('img[src="x"]').count()).toBe(0);
      // the og:image through our origin's signed image path (the page's CSP allows 'self' only), and loaded
      const img = card.locator('img');
      await img.waitFor({ timeout: WAIT_MS });
      expect(await img.getAttribute('src')).toMatch(/^\/api\/link-preview\/image\?u=[^&]+&s=[\w-]{43}$/);
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), {
          timeout: WAIT_MS,
          message: `${u.label} sees the image`,
        })
        .toBe(1);
      expect(u.dialogs).toEqual([]);
    }
    // for a person to look at (not asserted)
    await b.page.screenshot({ path: path.join(os.tmpdir(), 'ephemera-e2e-chat.png') });
    // dismissed: sent without a preview
    await a.byTestId('composer-textarea').fill(`again ${url}`);
    await draftCard.waitFor({ timeout: WAIT_MS });
    await a.byTestId('link-preview-dismiss').click();
    await draftCard.waitFor({ state: 'detached', timeout: WAIT_MS });
    await a.byTestId('composer-textarea').press('Enter');
    await expect.poll(() => messageRow(b, `again ${url}`).count(), { timeout: WAIT_MS }).toBe(1);
    expect(await messageRow(b, `again ${url}`).getByTestId('message-link-preview').count()).toBe(0);
  });

  it('list: grouping within 2 minutes, stays at the bottom for new messages, keeps the place when scrolled up, back-to-top after 200 px', async () => {
    const { a } = users();
    const { api } = target!;
    const general = (await a.page.locator('[data-testid="chat-area"]').getAttribute('data-channel-id'))!;
    const { socket } = await socketJoin(api.base, api.workspaceId, 'bob', api.bobToken);
    try {
      // ten tall messages (well within the per-user message rate limit)
      const tail = '\n.'.repeat(8);
      for (let i = 1; i <= 10; i++) {
        const ack = await request(socket, C.sendMessage, {
          clientMessageId: `burst${Date.now().toString(36)}n${i}`,
          channelId: general,
          content: `burst line ${i}${tail}`,
          type: 'text',
        });
        if (!ack.success) throw new Error(ack.message);
      }
      await expect
        .poll(() => a.page.locator('[data-testid="message-content"]', { hasText: /^burst line 10/ }).count(), {
          timeout: WAIT_MS,
        })
        .toBe(1);
      // one author, seconds apart: one group, one header
      const burstHeaders = await a.page
        .locator('[data-testid="message-item"]')
        .evaluateAll((els) =>
          els
            .filter((e) => /^burst line/.test(e.querySelector('[data-testid="message-content"]')?.textContent ?? ''))
            .map((e) => e.querySelector('[data-testid="message-author"]') !== null),
        );
      expect(burstHeaders.filter(Boolean)).toHaveLength(1);
      expect(burstHeaders[0]).toBe(true);

      const list = a.byTestId('message-list');
      const gap = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
      await expect
        .poll(gap, { timeout: WAIT_MS, message: 'A followed the burst to the bottom' })
        .toBeLessThanOrEqual(50);
      expect(await a.byTestId('back-to-top').count()).toBe(1); // far more than 200 px down

      // scrolled up: a new message does not move the view
      await list.evaluate((el) => {
        el.scrollTop = 250;
        el.dispatchEvent(new Event('scroll'));
      });
      const before = await list.evaluate((el) => el.scrollTop);
      await request(socket, C.sendMessage, {
        clientMessageId: `late${Date.now().toString(36)}xx`,
        channelId: general,
        content: 'while you were reading',
        type: 'text',
      });
      await messageRow(a, 'while you were reading').waitFor({ timeout: WAIT_MS });
      expect(Math.abs((await list.evaluate((el) => el.scrollTop)) - before)).toBeLessThan(5);

      await a.byTestId('back-to-top').click();
      await expect
        .poll(() => list.evaluate((el) => el.scrollTop), { timeout: WAIT_MS, message: 'back to the top' })
        .toBeLessThan(5);
      await a.byTestId('back-to-top').waitFor({ state: 'detached', timeout: WAIT_MS });
    } finally {
      socket.close();
    }
  });

  it('delivery marks: delivered while the other member is online; read once they have read it (public channel: from the summaries on load)', async () => {
    const { a } = users();
    const mark = () =>
      a.page
        .locator('[data-testid="message-item"].own')
        .last()
        .getByTestId('delivery-mark')
        .getAttribute('data-status');
    await expect.poll(mark, { timeout: WAIT_MS, message: "A's last message while B is online" }).toBe('delivered');
    // B has #general open, so B's read position covers it; in a public channel read positions come with the
    // channel summaries (live read receipts go to DM and private-channel members only: gateway fanout.ts)
    await a.page.reload({ waitUntil: 'domcontentloaded' });
    await a.page.locator('[data-testid="channel-title"]', { hasText: '# general' }).waitFor({ timeout: WAIT_MS });
    await expect.poll(mark, { timeout: WAIT_MS, message: "A's last message after B read it" }).toBe('read');
  });
  it('DM: the header shows the partner with Online and "typing..." while they type; read marks arrive live in a DM', async () => {
    const { a, b } = users();
    const available = a.page.locator('[data-testid="available-user"][data-username="bob"]');
    await available.click();
    await a.byTestId('start-dm-confirm').click(); // DM confirm
    await a.byTestId('start-dm-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
    await expectText(a.byTestId('channel-title'), 'bob', 'the DM header names the partner');
    await expectText(a.byTestId('dm-status'), 'Online', 'the partner is online');
    await a.send('a direct hello');
    const row = b.page.locator('[data-testid="dm-row"][data-partner-name="alice"]');
    await row.click();
    await b.waitForMessages(['a direct hello']);
    await b.byTestId('composer-textarea').fill('typing back');
    // the DM row in the sidebar says typing... too: this is the header's
    const headerTyping = a.byTestId('dm-status').getByTestId('dm-typing');
    await expectText(headerTyping, 'typing...', 'A sees B typing in the DM header');
    await b.byTestId('composer-textarea').fill('');
    await headerTyping.waitFor({ state: 'detached', timeout: WAIT_MS });
    await expectText(a.byTestId('dm-status'), 'Online', 'back to the presence');
    // B has the DM open: B's read position reaches A live (DM read receipts go to its members)
    const mark = () => messageRow(a, 'a direct hello').getByTestId('delivery-mark').getAttribute('data-status');
    await expect.poll(mark, { timeout: WAIT_MS, message: "A's DM message read by B" }).toBe('read');
  });
});
