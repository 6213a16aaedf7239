/**
 * The room in German (docs/i18n.md), in a real browser, in both modes: a member whose chosen language is German sees
 * the chat area (header, intro, day separator, messages, composer, reply bar), the message menu, the reaction
 * picker and the invite card in German, with no text of the English room catalog left in their words or in their
 * labels (aria-label, title, placeholder, alt); and the room's frame (the sidebar, the settings panel, its dialogs)
 * with none of the English room or roomside catalog left.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { C } from '@ephemera/proto';
import { createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { assertFrontendBuilt, launchBrowser, saidBy, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { MODES, type BrowserTarget } from './targets.ts';

const LOCALES_DIR = path.join(import.meta.dirname, '..', 'src', 'i18n', 'locales');
const catalog = (locale: string, area: string) =>
  JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, locale, `${area}.json`), 'utf8')) as Record<string, string>;

/**
 * The English words a German room must not show: for each key of the given areas whose German text differs, the
 * English message's literal pieces (placeholders, plural branches and tags cut out) of 4 characters or more.
 */
function englishPieces(areas: string[]): string[] {
  const pieces = new Set<string>();
  for (const area of areas) {
    const en = catalog('en', area);
    const de = catalog('de', area);
    for (const [key, message] of Object.entries(en)) {
      if (de[key] === message) continue; // the same in both languages (Emoji, Online)
      const literal = message.includes('plural,') ? '' : message.replace(/<\/?\d+>/g, '');
      for (const piece of literal.split(/\{[^}]*\}/)) if (piece.trim().length >= 4) pieces.add(piece.trim());
    }
  }
  return [...pieces];
}

for (const [mode, start] of MODES) {
  describe(`browser: the room in German (${mode})`, () => {
    let browser: Browser;
    let target: BrowserTarget;
    let alice: User;
    let bobSay: (content: string) => Promise<void>;
    let closeBob: () => void;
    const english = englishPieces(['room']);
    const englishIn = async (part: Locator) => {
      const said = await saidBy(part);
      return english.filter((piece) => said.includes(piece));
    };

    beforeAll(async () => {
      assertFrontendBuilt();
      [target, browser] = await Promise.all([start(`i18n-room-${mode}`), launchBrowser()]);
      const roomName = uniqueRoomName('i18nroom');
      const created = await createRoom(target.urlA, roomName, 'alice');
      const { workspaceId } = created;
      const owner = await socketJoin(target.urlA, workspaceId, 'alice', created.userToken);
      const ch = await request(owner.socket, C.createChannel, {
        workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      owner.socket.close();
      if (!ch.success) throw new Error(`create-channel: ${ch.message}`);
      const channelId = ch.channel.id;
      const joined = await joinRoom(target.urlA, workspaceId, 'bob');
      const bob = await socketJoin(target.urlA, workspaceId, 'bob', joined.userToken);
      closeBob = () => bob.socket.close();
      let n = 0;
      bobSay = async (content) => {
        const ack = await request(bob.socket, C.sendMessage, {
          clientMessageId: `i18n${Date.now().toString(36)}n${++n}`,
          channelId,
          content,
          type: 'text',
        });
        if (!ack.success) throw new Error(ack.message);
      };

      alice = await User.open(browser, 'alice', target.urlA, target.cookiesA, target.replicaA);
      // the visitor's saved choice (docs/i18n.md: it wins over the browser's languages)
      await alice.context.addInitScript(() => localStorage.setItem('ephemera.locale', 'de'));
      await alice.enterRoom({ workspaceId, userToken: created.userToken, username: 'alice', roomName });
      await alice.page.locator('[data-testid="channel-title"]', { hasText: '# general' }).waitFor();
    }, 240_000);
    afterAll(async () => {
      closeBob?.();
      await alice?.close();
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    it('the chat area, the message menu, the reply bar, the reaction picker and the invite card are German', async () => {
      expect(english.length).toBeGreaterThan(80); // the check has something to find
      expect(english).toContain('Enter to send · Shift+Enter for a new line');
      const chat = alice.byTestId('chat-area');
      await expect.poll(() => chat.innerText()).toContain('Willkommen in #general');
      expect(await alice.page.evaluate(() => document.documentElement.lang)).toBe('de');

      await bobSay('hallo von bob');
      await alice.send('hallo von alice');
      await alice.waitForMessages(['hallo von bob', 'hallo von alice']);
      const said = await saidBy(chat);
      for (const german of ['Heute', 'Du', 'Enter zum Senden', 'Nachricht an #general', 'Datei anhängen'])
        expect(said, german).toContain(german);
      await expect.poll(() => englishIn(chat), { timeout: WAIT_MS }).toEqual([]);

      // the menu of Bob's message: Antworten and Kopieren; Antworten opens the German reply bar
      const bobsRow = alice.page.locator('[data-testid="message-item"]', { hasText: 'hallo von bob' });
      await bobsRow.hover();
      await bobsRow.getByTestId('message-menu-button').click();
      const menu = alice.byTestId('message-menu');
      await menu.waitFor();
      expect((await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim())).toEqual([
        'Antworten',
        'Kopieren',
      ]);
      await alice.byTestId('action-reply').click();
      await expect.poll(() => alice.byTestId('reply-bar-title').innerText()).toBe('Antwort an bob');
      expect(await englishIn(chat)).toEqual([]);

      // the reaction picker of Alice's own message
      const ownRow = alice.page.locator('[data-testid="message-item"]', { hasText: 'hallo von alice' });
      await ownRow.hover();
      await ownRow.getByTestId('react-button').click();
      const picker = alice.byTestId('reaction-popover');
      await picker.waitFor();
      expect(await saidBy(picker)).toContain('Daumen hoch');
      expect(await englishIn(picker)).toEqual([]);
      await alice.page.keyboard.press('Escape');

      const invite = alice.page.locator('.invite-card');
      await expect.poll(() => invite.textContent()).toContain('Leute einladen');
      expect(await englishIn(invite)).toEqual([]);
      expect(alice.pageErrors).toEqual([]);
    });

    it('the sidebar, the settings panel and the room’s dialogs are German', async () => {
      // the room's frame (roomside); a piece that is also part of a German text (Status:, Start) cannot tell them apart
      const german = ['room', 'roomside'].flatMap((area) => Object.values(catalog('de', area)));
      const frameEnglish = englishPieces(['room', 'roomside']).filter((p) => !german.some((g) => g.includes(p)));
      expect(frameEnglish).toContain('Available to message');
      const frameEnglishIn = async (part: Locator) => {
        const said = await saidBy(part);
        return frameEnglish.filter((piece) => said.includes(piece));
      };

      const sidebar = alice.byTestId('sidebar');
      await expect.poll(() => saidBy(sidebar)).toContain('Für Nachrichten erreichbar');
      const said = await saidBy(sidebar);
      for (const text of ['Unterhaltungen', 'Besitzer', 'Einstellungen', 'Raum verlassen', 'Chats, Personen suchen...'])
        expect(said, text).toContain(text);
      expect(await frameEnglishIn(sidebar)).toEqual([]);

      await alice.byTestId('settings-button').click();
      const panel = alice.byTestId('settings-panel');
      await panel.waitFor();
      await expect.poll(() => saidBy(panel)).toContain('Einstellungen - Verwalte deinen Chatraum');
      for (const text of ['Schnellaktionen', 'Einladungslink kopieren', 'Gefahrenzone', 'Chatraum löschen'])
        expect(await saidBy(panel), text).toContain(text);
      expect(await frameEnglishIn(panel)).toEqual([]);

      await alice.byTestId('settings-password').click();
      const password = alice.byTestId('password-modal');
      await password.waitFor();
      expect(await saidBy(password)).toContain('Passwort festlegen');
      expect(await saidBy(password)).toContain('Schließen');
      expect(await frameEnglishIn(password)).toEqual([]);
      await alice.page.keyboard.press('Escape');
      await password.waitFor({ state: 'detached' });

      await alice.byTestId('create-channel-button').click();
      const create = alice.byTestId('create-channel-modal');
      await create.waitFor();
      expect(await saidBy(create)).toContain('Kanal erstellen');
      expect(await frameEnglishIn(create)).toEqual([]);
      await alice.page.keyboard.press('Escape');
      expect(alice.pageErrors).toEqual([]);
    });
  });
}
