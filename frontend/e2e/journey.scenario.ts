/**
 * The first user journey in a real browser (docs/product/rooms.md R3-R12; docs/protocol.md), registered
 * once per way of running the product (embedded.e2e.test.ts, distributed.e2e.test.ts).
 * Two people = two browser contexts of one Chromium. Each test asserts on what a person sees (text, DOM),
 * never on server internals; the one exception is the routing proof of the distributed run, which reads the
 * browser's own cookies and the Set-Cookie headers it received.
 * The tests of one file run in order and build on each other (one room, then its reload, ...).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import {
  assertFrontendBuilt,
  expectText,
  launchBrowser,
  uniqueRoomName,
  User,
  WAIT_MS,
  type CookieSpec,
} from './browser.ts';

export interface E2ETarget {
  /** origin user A's browser opens */
  urlA: string;
  /** origin user B's browser opens (the same origin behind an ingress, or in embedded mode) */
  urlB: string;
  /** cookies put into each user's browser context before it opens anything */
  cookiesA?: CookieSpec[];
  cookiesB?: CookieSpec[];
  /** when set: the gateway replica id that must serve A's / B's realtime connection */
  replicaA?: string;
  replicaB?: string;
  stop(): Promise<void>;
}

export interface ScenarioOptions {
  /** where to save a screenshot of A's room page with messages (checked by a person, not asserted) */
  screenshotPath?: string;
  /** the target pins A and B to different gateway replicas (replicaA/replicaB): prove it */
  proveReplicaRouting?: boolean;
}

const XSS_MESSAGE = '<img src=x onerror=alert(1)>';
const XSS_MESSAGE_2 = '<script>alert(2)</script>';
const XSS_USERNAME = '<script>alert(3)'; // 16 characters: within the 20-character username limit

export function registerJourney(label: string, start: () => Promise<E2ETarget>, options: ScenarioOptions = {}): void {
  describe(`browser journey: ${label}`, () => {
    let target: E2ETarget | undefined;
    let browser: Browser | undefined;
    const users: User[] = [];

    const openUser = async (who: 'A' | 'B', name: string) => {
      if (!browser || !target) throw new Error('the target or the browser did not start (see beforeAll)');
      const user =
        who === 'A'
          ? await User.open(browser, name, target.urlA, target.cookiesA, target.replicaA)
          : await User.open(browser, name, target.urlB, target.cookiesB, target.replicaB);
      users.push(user);
      return user;
    };

    beforeAll(async () => {
      assertFrontendBuilt();
      const started = Date.now();
      [target, browser] = await Promise.all([start(), launchBrowser()]);
      console.log(`[e2e ${label}] target and browser up in ${Date.now() - started} ms`);
    });

    afterAll(async () => {
      for (const u of users) await u.close();
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    // ---- shared state of the protected-room journey (tests 1-3) ----
    const room = uniqueRoomName('e2e');
    const password = 'open sesame 42';
    let alice: User | undefined;
    let bob: User | undefined;
    const sent: { text: string; author: string }[] = [];
    const requireRoom = () => {
      if (!alice || !bob) throw new Error('an earlier step of this journey failed; see the first failure');
      return { alice, bob };
    };

    it('1. A creates a password-protected room from the landing page, lands as Owner on a FREE room, and creates #general', async () => {
      const a = await openUser('A', 'alice');
      await a.goto('/');
      await a.byTestId('room-name-input').fill(room);
      await expectText(a.byTestId('room-name-counter'), `${room.length}/50`, 'room name counter');
      // the availability check runs 1 s after typing stops
      await a.page.locator('[data-testid="name-availability"][data-state="available"]').waitFor({ timeout: WAIT_MS });
      await expectText(a.byTestId('name-availability'), 'Room name is available', 'availability indicator');
      const createButton = a.byTestId('create-room-button');
      expect(await createButton.isEnabled()).toBe(true);
      expect(await textOfButton(createButton)).toBe('Create Room Now');
      await createButton.click();

      // Setup Room overlay, for the name typed
      const overlay = a.page.locator('[data-testid="join-overlay"][data-mode="create"]');
      await overlay.waitFor({ timeout: WAIT_MS });
      await expectText(overlay.locator('.overlay-title'), 'Setup Room', 'overlay title');
      await expectText(a.byTestId('overlay-room-name'), room, 'room name in the overlay');
      expect(await a.byTestId('password-input').count()).toBe(0); // only after ticking Password protect
      await a.byTestId('username-input').fill('alice');
      await a.byTestId('password-protect-checkbox').check();
      await a.byTestId('password-input').fill(password);
      const submit = a.byTestId('overlay-submit');
      expect(await textOfButton(submit)).toBe('Create & Join Room');
      await submit.click();

      // full navigation to /{roomName}, then the room itself
      await a.page.waitForURL((u) => u.pathname === `/${room}`, { timeout: WAIT_MS });
      await a.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      await expectText(a.byTestId('room-name'), room, 'sidebar room name');
      await expectText(a.byTestId('tier-badge'), 'FREE', 'tier badge');
      await expectText(a.byTestId('role-badge'), 'Owner', 'role badge');
      await expectText(a.byTestId('current-username'), 'alice', 'sidebar username');
      await a.byTestId('lock-icon').waitFor({ timeout: WAIT_MS });
      await expectText(a.byTestId('channel-list-empty'), /No conversations yet/, 'empty channel list');

      // create #general from the sidebar
      await a.byTestId('create-channel-button').click();
      const modal = a.byTestId('create-channel-modal');
      await modal.waitFor({ timeout: WAIT_MS });
      await a.byTestId('channel-name-input').fill('general');
      await a.byTestId('create-channel-submit').click();
      await modal.waitFor({ state: 'detached', timeout: WAIT_MS });
      await a.page.locator('[data-testid="channel-row"][data-channel-name="general"]').waitFor({ timeout: WAIT_MS });
      await expectText(a.byTestId('channel-title'), '# general', 'chat header of the new channel');
      await a.byTestId('composer-textarea').waitFor({ timeout: WAIT_MS });
      alice = a;
    });

    it('2. B opens the room link: password overlay, "Incorrect password" for a wrong one, joins as Member; both chat both ways in real time, in order', async () => {
      if (!alice) throw new Error('test 1 did not create the room; see its failure');
      const a = alice;
      const b = await openUser('B', 'bob');
      await b.goto(`/${room}`);
      const overlay = b.page.locator('[data-testid="join-overlay"][data-mode="join"]');
      await overlay.waitFor({ timeout: WAIT_MS });
      await expectText(b.byTestId('overlay-room-name'), room, 'room name in the join overlay');
      await b.byTestId('password-input').waitFor({ timeout: WAIT_MS }); // the room is protected
      expect(await textOfButton(b.byTestId('overlay-submit'))).toBe('Join Room');

      await b.byTestId('username-input').fill('bob');
      await b.page
        .locator('[data-testid="username-availability"][data-state="available"]')
        .waitFor({ timeout: WAIT_MS });
      await b.byTestId('password-input').fill('not the password');
      await b.byTestId('overlay-submit').click();
      await expectText(b.byTestId('overlay-error'), 'Incorrect password', 'overlay error for a wrong password');
      expect(new URL(b.page.url()).pathname).toBe(`/${room}`);
      expect(await overlay.isVisible()).toBe(true); // still on the overlay

      await b.byTestId('password-input').fill(password);
      await b.page
        .locator('[data-testid="username-availability"][data-state="available"]')
        .waitFor({ timeout: WAIT_MS });
      await b.byTestId('overlay-submit').click();
      await b.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      await expectText(b.byTestId('role-badge'), 'Member', 'B role badge');
      await expectText(b.byTestId('current-username'), 'bob', 'B sidebar username');
      await b.page.locator('[data-testid="channel-row"][data-channel-name="general"]').waitFor({ timeout: WAIT_MS });
      expect(await b.byTestId('create-channel-button').count()).toBe(0); // members cannot create channels
      // the first channel opens by itself on a desktop-sized window
      await expectText(b.byTestId('channel-title'), '# general', 'B chat header');
      await b.byTestId('composer-textarea').waitFor({ timeout: WAIT_MS });
      bob = b;

      // A sees B arrive (2 of the free room's 5)
      await expectText(a.byTestId('online-count'), '2/5', 'A online count after B joined');

      // A -> B: a burst of three; B sees them live, in order
      for (const text of ['Hello from Alice #1', 'Alice #2: anyone here?', 'Alice #3 – ünïcødé ✓']) {
        await a.send(text);
        sent.push({ text, author: 'alice' });
      }
      await b.waitForMessages(sent.map((m) => m.text));
      // B -> A
      for (const text of ['Hi Alice, Bob here #1', 'Bob #2: loud and clear']) {
        await b.send(text);
        sent.push({ text, author: 'bob' });
      }
      await a.waitForMessages(sent.map((m) => m.text));
      await b.waitForMessages(sent.map((m) => m.text));
      // the author of each bubble is the right person, on both screens
      expect(await a.messageAuthors()).toEqual(sent.map((m) => m.author));
      expect(await b.messageAuthors()).toEqual(sent.map((m) => m.author));
      // own messages are labelled "You", the other's by name
      expect(await a.byTestId('message-author').allTextContents()).toEqual(['You', 'bob']);
      expect(await b.byTestId('message-author').allTextContents()).toEqual(['alice', 'You']);
      // every own message was acknowledged by the server (no "sending" clock, no failure left)
      await expect
        .poll(
          () =>
            a.page
              .locator('[data-testid="message-item"][data-status="sending"], [data-testid="message-error"]')
              .count(),
          { timeout: WAIT_MS },
        )
        .toBe(0);
      await expect
        .poll(
          () =>
            b.page
              .locator('[data-testid="message-item"][data-status="sending"], [data-testid="message-error"]')
              .count(),
          { timeout: WAIT_MS },
        )
        .toBe(0);

      if (options.screenshotPath) {
        fs.mkdirSync(path.dirname(options.screenshotPath), { recursive: true });
        await a.page.screenshot({ path: options.screenshotPath, fullPage: false });
      }
    });

    if (options.proveReplicaRouting) {
      it('routing: A and B are served by different gateway replicas, each by the one its cookie names', async () => {
        const { alice: a, bob: b } = requireRoom();
        expect(target?.replicaA, 'replicaA').toBeTruthy();
        expect(target?.replicaB, 'replicaB').toBeTruthy();
        expect(target!.replicaA).not.toBe(target!.replicaB);
        await expectServedByOwnReplica(a);
        await expectServedByOwnReplica(b);
      });
    }

    it('3. B reloads: rejoins directly from the stored auth (no overlay), sees the history in order, and is live again', async () => {
      const { alice: a, bob: b } = requireRoom();
      await b.page.reload({ waitUntil: 'domcontentloaded' });
      // whichever of the overlay and the room shows up first must be the room
      const first = b.page.locator('[data-testid="room-view"], [data-testid="join-overlay"]').first();
      await first.waitFor({ timeout: WAIT_MS });
      expect(await first.getAttribute('data-testid')).toBe('room-view');
      expect(await b.byTestId('join-overlay').count()).toBe(0);
      await expectText(b.byTestId('role-badge'), 'Member', 'B role after reload');
      await expectText(b.byTestId('channel-title'), '# general', 'B channel after reload (last channel remembered)');
      await b.waitForMessages(sent.map((m) => m.text));
      expect(await b.messageAuthors()).toEqual(sent.map((m) => m.author));

      // the rejoined session receives live messages again
      const text = 'Alice #4: welcome back, Bob';
      await a.send(text);
      sent.push({ text, author: 'alice' });
      await b.waitForMessages(sent.map((m) => m.text));
      expect(await b.byTestId('join-overlay').count()).toBe(0);
    });

    // ---- the open room of tests 4 and 5 ----
    let openRoom: { name: string; owner: User } | undefined;

    it('4. a room without a password: created from its address, joined without a password field, one message each way', async () => {
      const open = uniqueRoomName('e2e-open');
      const a = await openUser('A', 'carol');
      const b = await openUser('B', 'dave');

      // A opens the address of a room that does not exist yet: the Setup Room overlay
      await a.goto(`/${open}`);
      await a.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
      await a.byTestId('username-input').fill('carol');
      await a.byTestId('overlay-submit').click();
      await a.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      await expectText(a.byTestId('role-badge'), 'Owner', 'owner badge');
      expect(await a.byTestId('lock-icon').count()).toBe(0);
      await a.byTestId('create-channel-button').click();
      await a.byTestId('channel-name-input').fill('lobby');
      await a.byTestId('create-channel-submit').click();
      await expectText(a.byTestId('channel-title'), '# lobby', 'A channel');

      await b.goto(`/${open}`);
      await b.page.locator('[data-testid="join-overlay"][data-mode="join"]').waitFor({ timeout: WAIT_MS });
      expect(await b.byTestId('password-input').count()).toBe(0);
      await b.byTestId('username-input').fill('dave');
      await b.page
        .locator('[data-testid="username-availability"][data-state="available"]')
        .waitFor({ timeout: WAIT_MS });
      await b.byTestId('overlay-submit').click();
      await b.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      await expectText(b.byTestId('role-badge'), 'Member', 'member badge');
      await expectText(b.byTestId('channel-title'), '# lobby', 'B channel');
      await b.byTestId('composer-textarea').waitFor({ timeout: WAIT_MS });

      await a.send('carol says hi');
      await b.waitForMessages(['carol says hi']);
      await b.send('dave says hi back');
      await a.waitForMessages(['carol says hi', 'dave says hi back']);
      await b.waitForMessages(['carol says hi', 'dave says hi back']);
      openRoom = { name: open, owner: a };
    });

    it('5. XSS smoke: markup in a message and in a username renders as text and opens no dialog', async () => {
      if (!openRoom) throw new Error('test 4 did not set up its room; see its failure');
      const a = openRoom.owner;
      const x = await openUser('B', 'xss');
      const doc = await x.goto(`/${openRoom.name}`);
      // the second line of defence is on: scripts only from the app's own origin
      expect(doc?.headers()['content-security-policy'] ?? '', 'CSP header of the room page').toMatch(
        /script-src 'self'(;|$)/,
      );
      await x.page.locator('[data-testid="join-overlay"][data-mode="join"]').waitFor({ timeout: WAIT_MS });
      await x.byTestId('username-input').fill(XSS_USERNAME);
      await x.page
        .locator('[data-testid="username-availability"][data-state="available"]')
        .waitFor({ timeout: WAIT_MS });
      await x.byTestId('overlay-submit').click();
      await x.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      await expectText(x.byTestId('current-username'), XSS_USERNAME, 'the username shows as typed');

      await x.send(XSS_MESSAGE);
      await a.send(XSS_MESSAGE_2);
      const expected = ['carol says hi', 'dave says hi back', XSS_MESSAGE, XSS_MESSAGE_2];
      await a.waitForMessages(expected);
      await x.waitForMessages(expected);
      // the author name is shown as text too
      await expect
        .poll(() => a.byTestId('message-author').allTextContents(), { timeout: WAIT_MS })
        .toContain(XSS_USERNAME);

      for (const u of [a, x]) {
        // no element was made from the message or the name: no <img src=x>, no <script> in the app's DOM
        expect(await u.page.locator('img[src="x"]').count(), `${u.label}: img from a message`).toBe(0);
        expect(
          await u.page
            .locator('#root script, [data-testid="message-list"] img, [data-testid="sidebar"] script')
            .count(),
          `${u.label}: injected elements`,
        ).toBe(0);
        // and the raw text is in the bubbles, character for character
        const html = await u.page.locator('[data-testid="message-list"]').innerHTML();
        expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
        expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
      }
      // give any deferred handler (an image error, a timer) time to run before checking dialogs
      await a.page.waitForTimeout(500);
      for (const u of users) expect(u.dialogs, `${u.label} opened a dialog`).toEqual([]);
      // nothing was injected and merely stopped by the Content-Security-Policy either (an injected handler or
      // script reports blockedURI "inline"). Ignored: zod's startup probe `Function('')` ("eval"), caught by zod.
      for (const u of [a, x]) {
        const violations = (await u.cspViolations()).filter((v) => !/^script-src(-elem)?: eval\b/.test(v));
        expect(violations, `${u.label}: CSP violations`).toEqual([]);
      }
    });

    it('no page opened a dialog or threw an uncaught error; every connection (reloads too) stayed on its replica', async () => {
      expect(users.length).toBeGreaterThan(0);
      for (const u of users) {
        expect(u.dialogs, `${u.label}: dialogs`).toEqual([]);
        expect(u.pageErrors, `${u.label}: uncaught page errors`).toEqual([]);
        if (u.replica) await expectServedByOwnReplica(u);
      }
    });
  });
}

/**
 * The gateway answering a Socket.IO handshake sets ephemera_gw to its own id. The browser having received only
 * its own replica's id, and still holding exactly that cookie, means each of its connections was served there.
 */
async function expectServedByOwnReplica(u: User): Promise<void> {
  if (!u.replica) return;
  expect(
    u.gatewaySetCookies.length,
    `${u.label} received Set-Cookie ephemera_gw from a gateway handshake`,
  ).toBeGreaterThan(0);
  expect([...new Set(u.gatewaySetCookies)], `${u.label}: replicas that answered its handshakes`).toEqual([u.replica]);
  expect(await u.gatewayCookies(), `${u.label}'s ephemera_gw cookie`).toEqual([u.replica]);
  expect(u.websockets.length, `${u.label} upgraded to a websocket`).toBeGreaterThan(0);
  expect(
    u.websockets.filter((w) => w.error),
    `${u.label}: websocket errors`,
  ).toEqual([]);
}

async function textOfButton(locator: Locator): Promise<string> {
  await locator.waitFor({ state: 'visible', timeout: WAIT_MS });
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}
