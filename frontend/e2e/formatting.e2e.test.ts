/**
 * Formatted messages and mentions in a real browser, in both modes (docs/product/messages.md M22-M27): a hostile
 * corpus renders inert (no script runs, no javascript:/data: link, no image from markup), a formatted message shows
 * as elements with a highlighted code block, a mention is marked for both people (more strongly for the one it
 * mentions) and counted in that person's "@" badge until the channel is opened. axe checks the new elements.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { C } from '@ephemera/proto';
import { createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { seriousViolations } from './admin.helpers.ts';
import { assertFrontendBuilt, launchBrowser, textOf, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { MODES, type BrowserTarget } from './targets.ts';

/** Each line would set window.__pwned if any of it ran as markup or as a link's script. */
const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '[click me](javascript:window.__pwned="link") and [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '<javascript:window.__pwned="autolink"> ![pic](javascript:window.__pwned="image")',
  '**<b onmouseover="window.__pwned=1">nested</b> _<svg onload="window.__pwned=1">_** [x](vbscript:msgbox)',
].join('\n\n');
/** 2,000 characters of nested markers */
const NESTED = ('**_~~`' + 'x'.repeat(4) + '`~~_** ').repeat(100).slice(0, 1000) + '*_'.repeat(500);

const FORMATTED = [
  '**bold** *italic* ~~gone~~ `inline`',
  '> quoted',
  '',
  '- one',
  '- two',
  '',
  '[the docs](https://example.com/docs)',
  '',
  '```js',
  'const answer = 42;',
  '```',
].join('\n');

const row = (u: User, name: string) => u.page.locator(`[data-testid="channel-row"][data-channel-name="${name}"]`);

for (const [mode, start] of MODES) {
  describe(`browser: formatted messages and mentions (${mode})`, () => {
    let browser: Browser;
    let target: BrowserTarget;
    let alice: User;
    let bob: User;
    let bobAuth: Parameters<User['enterRoom']>[0];
    beforeAll(async () => {
      assertFrontendBuilt();
      [target, browser] = await Promise.all([start('formatting'), launchBrowser()]);
      const roomName = uniqueRoomName('fmt');
      const created = await createRoom(target.urlA, roomName, 'alice');
      const { workspaceId } = created;
      const { socket } = await socketJoin(target.urlA, workspaceId, 'alice', created.userToken);
      for (const name of ['general', 'random', 'news']) {
        const ch = await request(socket, C.createChannel, { workspaceId, name, type: 'topic', isPrivate: false });
        if (!ch.success) throw new Error(`create-channel: ${ch.message}`);
      }
      socket.close();
      const joined = await joinRoom(target.urlA, workspaceId, 'bob');
      alice = await User.open(browser, 'alice', target.urlA, target.cookiesA, target.replicaA);
      bob = await User.open(browser, 'bob', target.urlB, target.cookiesB, target.replicaB);
      await alice.enterRoom({ workspaceId, userToken: created.userToken, username: 'alice', roomName });
      bobAuth = { workspaceId, userToken: joined.userToken, username: 'bob', roomName };
      await bob.enterRoom(bobAuth);
      for (const u of [alice, bob]) {
        await row(u, 'general').click();
        await u.page.locator('[data-testid="channel-title"]', { hasText: '# general' }).waitFor({ timeout: WAIT_MS });
      }
    }, 240_000);
    afterAll(async () => {
      await alice?.close();
      await bob?.close();
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    it('a hostile corpus and 2,000 characters of nested markers render inert, as text', async () => {
      await alice.send(HOSTILE);
      await alice.send(NESTED);
      for (const u of [alice, bob]) {
        await expect
          .poll(() => u.byTestId('message-content').count(), { timeout: WAIT_MS, message: `${u.label}'s list` })
          .toBe(2);
        const hostile = u.byTestId('message-content').first();
        // the formatted renderer, not the plain text shown while it loads
        await u.page.locator('[data-testid="message-content"][data-format="markdown"]').nth(1).waitFor();
        expect(await hostile.textContent()).toContain('<script>window.__pwned = "script"</script>');
        expect(await hostile.textContent()).toContain('click me');
        const bubbles = u.page.locator('[data-testid="message-content"]');
        expect(await bubbles.locator('a[href^="javascript:"], a[href^="data:"], a[href^="vbscript:"]').count()).toBe(0);
        expect(await bubbles.locator('img, script, svg, b, iframe').count(), 'no element from markup').toBe(0);
        // more markers than MAX_MARKERS: shown as typed (MarkdownBody.tsx), in the formatted renderer
        expect(await textOf(bubbles.nth(1))).toContain('**_~~`xxxx`~~_**');
        // hovering and clicking what was typed as handlers runs nothing
        await hostile.getByText('click me').click();
        expect(await u.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
        expect(u.dialogs).toEqual([]);
        expect(u.pageErrors).toEqual([]);
        // "script-src: eval" here is code probing eval (zod does), not a message: the browser must load no zod
        // (docs/dependencies.md, zod)
        expect(await u.cspViolations(), 'CSP reports').toEqual([]);
      }
    });

    it('a formatted message shows as elements, its code highlighted once the language loads; axe finds nothing serious', async () => {
      await alice.send(FORMATTED);
      const content = bob.page.locator('[data-testid="message-content"][data-format="markdown"]', {
        hasText: 'the docs',
      });
      await content.waitFor({ timeout: WAIT_MS });
      expect(await textOf(content.locator('strong'))).toBe('bold');
      expect(await textOf(content.locator('em'))).toBe('italic');
      expect(await textOf(content.locator('del'))).toBe('gone');
      expect(await textOf(content.locator('p > code'))).toBe('inline');
      expect(await textOf(content.locator('blockquote'))).toBe('quoted');
      expect(await content.locator('ul > li').allTextContents()).toEqual(['one', 'two']);
      const link = content.locator('a', { hasText: 'the docs' });
      expect(await link.getAttribute('href')).toBe('https://example.com/docs');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      await content.locator('pre code .hljs-keyword', { hasText: 'const' }).waitFor({ timeout: WAIT_MS });
      expect(await textOf(content.locator('pre code'))).toBe('const answer = 42;');
      expect(await seriousViolations(bob.page), 'axe: formatted messages').toEqual([]);
    });

    it("a mention is marked for both, more strongly for bob, and counted in bob's @ badge until he opens the channel", async () => {
      await row(alice, 'random').click();
      await alice.page.locator('[data-testid="channel-title"]', { hasText: '# random' }).waitFor({ timeout: WAIT_MS });
      await alice.send('hey @bob, have a look');
      await alice.send('and one without');
      const bobRow = row(bob, 'random');
      await expect.poll(() => bobRow.getByTestId('unread-badge').textContent(), { timeout: WAIT_MS }).toBe('2');
      expect(await textOf(bobRow.getByTestId('mention-badge'))).toBe('@1');
      expect(await bobRow.getByTestId('mention-badge').getAttribute('aria-label')).toBe('1 mention');
      expect(await row(bob, 'general').getByTestId('mention-badge').count()).toBe(0);
      expect(await seriousViolations(bob.page), 'axe: the sidebar with an @ badge').toEqual([]);

      const seen = alice.page.getByTestId('mention');
      expect(await textOf(seen)).toBe('@bob');
      expect(await seen.getAttribute('data-self')).toBeNull();

      await bobRow.click();
      await bob.page.locator('[data-testid="channel-title"]', { hasText: '# random' }).waitFor({ timeout: WAIT_MS });
      const mine = bob.page.getByTestId('mention');
      await mine.waitFor({ timeout: WAIT_MS });
      expect(await textOf(mine)).toBe('@bob');
      expect(await mine.getAttribute('data-self')).toBe('true');
      expect(await mine.getAttribute('class')).toBe('mention mention-self');
      expect(await bobRow.getByTestId('mention-badge').count(), 'opening the channel clears the @ badge').toBe(0);
      expect(await seriousViolations(bob.page), 'axe: a mention of the reader').toEqual([]);
    });

    it('a mention sent while bob\'s page is closed shows "@1" when he opens the room (the server\'s count)', async () => {
      await bob.close();
      await row(alice, 'news').click();
      await alice.page.locator('[data-testid="channel-title"]', { hasText: '# news' }).waitFor({ timeout: WAIT_MS });
      // the mention is not the last message: the browser holds only the last one of each conversation at first
      await alice.send('@bob while you were away');
      await alice.send('second');
      await alice.send('third, with `@bob` in code');
      bob = await User.open(browser, 'bob', target.urlB, target.cookiesB, target.replicaB);
      await bob.enterRoom(bobAuth);
      const bobRow = row(bob, 'news');
      await expect.poll(() => bobRow.getByTestId('unread-badge').textContent(), { timeout: WAIT_MS }).toBe('3');
      expect(await textOf(bobRow.getByTestId('mention-badge'))).toBe('@1');
    });
  });
}
