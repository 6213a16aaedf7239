/**
 * Seed data of the superadmin browser test (superadmin.e2e.test.ts), made through the product's own doors: accounts
 * signed up by e-mail code (Mailpit), rooms created over HTTP (one owned by an account), messages sent over the
 * realtime protocol in two channels, a contact-form message, and page views as a browser reports them.
 */
import { API, ADMIN_API, C, CONTACT_PATH, type CreateWorkspaceAnswer } from '@ephemera/proto';
import { clientId, http, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { bearer, register, type AccountTarget } from '../../test/accounts/account-clients.ts';
import type { Mailpit } from '../../test/helpers/mailpit.ts';
import { expectText, User, WAIT_MS } from './browser.ts';

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

export interface Seed {
  accounts: { email: string; token: string; username: string }[];
  owned: { id: string; name: string; owner: string };
  guestRoom: { id: string; name: string };
  /** the messages of the owned room, by channel */
  messages: { channel: string; content: string }[];
  contact: { name: string; email: string; message: string };
  /** page views reported by an ordinary browser (distinct paths) and by a bot (not counted) */
  pageViews: string[];
}

export async function signUp(url: string, mail: Mailpit, email: string, username: string) {
  const s = await register({ url, mail } as unknown as AccountTarget, email, username);
  return { email, token: s.token, username };
}

export async function seed(url: string, mail: Mailpit, tag: string): Promise<Seed> {
  const accounts = [];
  for (const [i, name] of ['olivia', 'pablo', 'quinn'].entries()) {
    accounts.push(await signUp(url, mail, `${name}-${tag}-${i}@example.test`, name));
  }
  const owner = accounts[0]!;
  const ownedName = `mod-${tag}`;
  const created = await http<CreateWorkspaceAnswer>(url, API.create(), {
    body: { name: ownedName, username: 'olivia', hasPassword: false },
    headers: bearer(owner.token),
  });
  if (created.status !== 201) throw new Error(`create owned room: ${created.status} ${JSON.stringify(created.body)}`);
  const guest = await http<CreateWorkspaceAnswer>(url, API.create(), {
    body: { name: `guest-${tag}`, username: 'gus', hasPassword: false },
  });
  if (guest.status !== 201) throw new Error(`create guest room: ${guest.status} ${JSON.stringify(guest.body)}`);

  // two channels, five messages, from two members
  const { socket } = await socketJoin(url, created.body.workspaceId, 'olivia', created.body.userToken);
  const bob = await joinRoom(url, created.body.workspaceId, 'bob');
  const { socket: bobSocket } = await socketJoin(url, created.body.workspaceId, 'bob', bob.userToken);
  const messages = [
    { channel: 'general', content: 'Welcome to the moderation test' },
    { channel: 'general', content: 'Second line in general' },
    { channel: 'random', content: 'Random thought: ünïcödé & <b>not bold</b>' },
    { channel: 'general', content: 'Third line in general' },
    { channel: 'random', content: 'Last word in random' },
  ];
  try {
    const channels = new Map<string, string>();
    for (const name of ['general', 'random']) {
      const ack = (await request(socket, C.createChannel, {
        workspaceId: created.body.workspaceId,
        name,
        type: 'topic',
        isPrivate: false,
      })) as { success: boolean; channel?: { id: string }; message?: string };
      if (!ack.success || !ack.channel) throw new Error(`create channel ${name}: ${ack.message}`);
      channels.set(name, ack.channel.id);
    }
    for (const [i, m] of messages.entries()) {
      const from = i % 2 === 0 ? socket : bobSocket;
      if (from === bobSocket) await request(bobSocket, C.joinChannel, { channelId: channels.get(m.channel)! });
      const ack = (await request(from, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: channels.get(m.channel)!,
        content: m.content,
        type: 'text',
      })) as { success: boolean; message?: unknown };
      if (!ack.success) throw new Error(`send: ${JSON.stringify(ack)}`);
    }
  } finally {
    socket.disconnect();
    bobSocket.disconnect();
  }

  const contact = {
    name: 'Carol Contact',
    email: `carol-${tag}@example.test`,
    message: 'The upload button is hidden on my phone.',
  };
  const sent = await http(url, CONTACT_PATH, { body: { ...contact, category: 'support' } });
  if (sent.status !== 201) throw new Error(`contact: ${sent.status} ${JSON.stringify(sent.body)}`);

  const pageViews = ['/', '/features', '/about', '/pricing-check', '/contact'];
  for (const path of pageViews)
    await http(url, ADMIN_API.pageview, {
      body: { path, userAgent: BROWSER_UA },
      headers: { 'user-agent': BROWSER_UA },
    });
  await http(url, ADMIN_API.pageview, {
    body: { path: '/bot-only', userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    headers: { 'user-agent': 'Googlebot/2.1' },
  });

  return {
    accounts,
    owned: { id: created.body.workspaceId, name: ownedName, owner: owner.email },
    guestRoom: { id: guest.body.workspaceId, name: `guest-${tag}` },
    messages,
    contact,
    pageViews,
  };
}

/** The admin API as the signed-in superadmin sees it (to compare the page's figures with the server's answers). */
export async function adminGet<T>(url: string, token: string, path: string): Promise<T> {
  const res = await http<T>(url, path, { headers: bearer(token) });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A toast with this text appears (the app's Toast). */
export async function expectToast(u: User, text: string | RegExp, what: string): Promise<void> {
  await expectText(u.page.getByTestId('toast-stack').locator('[data-testid]').filter({ hasText: text }), text, what);
}

export async function openTab(u: User, id: string): Promise<void> {
  await u.byTestId(`sa-tab-${id}`).click();
  await u.byTestId(`sa-panel-${id}`).waitFor({ timeout: WAIT_MS });
}

/** Answers the dashboard's own prompt dialog (AskDialog.tsx) with `answer`, or cancels it (null). */
export async function answerPrompt(u: User, answer: string | null): Promise<void> {
  const dialog = u.byTestId('ask-prompt');
  await dialog.waitFor({ timeout: WAIT_MS });
  if (answer === null) {
    await u.byTestId('ask-cancel').click();
    return;
  }
  await u.byTestId('ask-input').fill(answer);
  await u.byTestId('ask-ok').click();
  await dialog.waitFor({ state: 'detached', timeout: WAIT_MS });
}
export async function answerConfirm(u: User, ok: boolean): Promise<string> {
  const dialog = u.byTestId('ask-confirm');
  await dialog.waitFor({ timeout: WAIT_MS });
  const text = (await u.byTestId('ask-text').textContent()) ?? '';
  await u.byTestId(ok ? 'ask-ok' : 'ask-cancel').click();
  await dialog.waitFor({ state: 'detached', timeout: WAIT_MS });
  return text;
}
