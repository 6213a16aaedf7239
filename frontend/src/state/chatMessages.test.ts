import { beforeAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import type { OnlineUser } from '@ephemera/proto';
import { chatMessages, deliveryStatus, otherMemberOnline } from './chatMessages.ts';
import type { PendingMessage } from './roomState.ts';
import { channel, me, message, other } from './testData.ts';

const onlineUser = (id: string, username = id): OnlineUser => ({
  id,
  username,
  isAdmin: false,
  presenceStatus: 'online',
});

describe('deliveryStatus: sending, sent, delivered, read', () => {
  it('pending sends are sending (or failed)', () => {
    expect(deliveryStatus({ seq: null, pendingStatus: 'sending', othersReadSeq: 99, othersOnline: true })).toBe(
      'sending',
    );
    expect(deliveryStatus({ seq: null, pendingStatus: 'failed', othersReadSeq: 99, othersOnline: true })).toBe(
      'failed',
    );
  });
  it('stored with nobody else online: sent', () => {
    expect(deliveryStatus({ seq: 5, othersReadSeq: 0, othersOnline: false })).toBe('sent');
  });
  it('stored with another member online: delivered', () => {
    expect(deliveryStatus({ seq: 5, othersReadSeq: 4, othersOnline: true })).toBe('delivered');
  });
  it('another member read up to or past it: read (online or not)', () => {
    expect(deliveryStatus({ seq: 5, othersReadSeq: 5, othersOnline: false })).toBe('read');
    expect(deliveryStatus({ seq: 5, othersReadSeq: 9, othersOnline: true })).toBe('read');
  });
});

describe('otherMemberOnline', () => {
  const online = [onlineUser(me.id), onlineUser('u-carol')];
  it('a public channel: anyone but me', () => {
    expect(otherMemberOnline(online, channel('c1'), me.id)).toBe(true);
    expect(otherMemberOnline([onlineUser(me.id)], channel('c1'), me.id)).toBe(false);
  });
  it('a private channel or DM: only its members count', () => {
    const dm = channel('d1', 'dm', { type: 'dm', memberIds: [me.id, other.id] });
    expect(otherMemberOnline(online, dm, me.id)).toBe(false);
    expect(otherMemberOnline([...online, onlineUser(other.id)], dm, me.id)).toBe(true);
    const priv = channel('p1', 'secret', { isPrivate: true, memberIds: [me.id, 'u-carol'] });
    expect(otherMemberOnline(online, priv, me.id)).toBe(true);
  });
});

describe('chatMessages rows', () => {
  const c1 = channel('c1');
  const quoted = message(1);
  const mine = message(2, { authorId: me.id, authorName: me.username, reactions: { '👍': [other.id] } });
  const pending: PendingMessage = {
    clientMessageId: 'cm-p',
    channelId: 'c1',
    content: 'later',
    createdAt: '2030-01-01T00:01:00.000Z',
    status: 'sending',
    error: null,
    replyTo: { messageId: quoted.id },
  };

  it('own stored messages carry their delivery mark; others none', () => {
    const rows = chatMessages({
      channel: c1,
      confirmed: [quoted, mine],
      pending: [],
      me,
      online: [onlineUser(other.id)],
      othersReadSeq: 1,
    });
    expect(rows.map((r) => [r.id, r.own, r.status])).toEqual([
      ['m1', false, null],
      ['m2', true, 'delivered'],
    ]);
    const read = chatMessages({
      channel: c1,
      confirmed: [quoted, mine],
      pending: [],
      me,
      online: [],
      othersReadSeq: 2,
    });
    expect(read[1]!.status).toBe('read');
    expect(read[1]!.reactions).toEqual({ '👍': [other.id] });
  });
  it('pending sends come last, with the quote of the message they reply to', () => {
    const rows = chatMessages({
      channel: c1,
      confirmed: [quoted],
      pending: [pending, { ...pending, clientMessageId: 'x', channelId: 'c2' }],
      me,
      online: [],
      othersReadSeq: 0,
    });
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ key: 'pending-cm-p', id: null, own: true, status: 'sending', channelId: 'c1' });
    expect(rows[1]!.replyTo).toEqual({ messageId: 'm1', content: quoted.content, authorName: quoted.authorName });
  });
  it('a stored reply shows the quote the server stored, not the current text of the quoted message', () => {
    const reply = message(3, { replyTo: { messageId: 'm1', content: 'as it was', authorName: 'bob' } });
    const rows = chatMessages({
      channel: c1,
      confirmed: [{ ...quoted, content: 'edited since' }, reply],
      pending: [],
      me,
      online: [],
      othersReadSeq: 0,
    });
    expect(rows[1]!.replyTo).toEqual({ messageId: 'm1', content: 'as it was', authorName: 'bob' });
  });
  it('no channel: no rows', () => {
    expect(
      chatMessages({ channel: null, confirmed: [quoted], pending: [pending], me, online: [], othersReadSeq: 0 }),
    ).toEqual([]);
  });
});

describe('grouping the chat rows (same author within 2 minutes; Today/Yesterday separators)', () => {
  beforeAll(() => activateLocale('en', ['room']));

  it('a pending send right after my stored message continues its group; another author or a 2-minute gap starts one', async () => {
    const { buildMessageItems } = await import('../lib/grouping.ts');
    const at = (min: number, sec = 0) => new Date(2030, 0, 1, 10, min, sec).toISOString(); // local time, as the labels are
    const mine1 = message(1, { authorId: me.id, authorName: me.username, timestamp: at(0) });
    const bob = message(2, { timestamp: at(0, 30) });
    const bob2 = message(3, { timestamp: at(2, 30) }); // exactly 2 minutes later: same group
    const bob3 = message(4, { timestamp: at(4, 31) }); // 2 minutes and 1 second: new group
    const mine2 = message(5, { authorId: me.id, authorName: me.username, timestamp: at(5) });
    const pending: PendingMessage = {
      clientMessageId: 'p1',
      channelId: 'c1',
      content: 'x',
      createdAt: at(5, 20),
      status: 'sending',
      error: null,
    };
    const rows = chatMessages({
      channel: channel('c1'),
      confirmed: [mine1, bob, bob2, bob3, mine2],
      pending: [pending],
      me,
      online: [],
      othersReadSeq: 0,
    });
    const now = new Date(2030, 0, 1, 12);
    const items = buildMessageItems(rows, now);
    expect(items[0]).toMatchObject({ kind: 'day', label: 'Today' });
    expect(items.filter((i) => i.kind === 'message').map((i) => (i.kind === 'message' ? i.showHeader : null))).toEqual([
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
    const tomorrow = new Date(2030, 0, 2, 12);
    expect(buildMessageItems(rows, tomorrow)[0]).toMatchObject({ kind: 'day', label: 'Yesterday' });
  });
});

describe('row identity (so unchanged messages do not re-render)', () => {
  it('the same stored message with the same mark is the same row; a changed message or mark is a new one', () => {
    const c1 = channel('c1');
    const a = message(1);
    const mine = message(2, { authorId: me.id, authorName: me.username });
    const first = chatMessages({ channel: c1, confirmed: [a, mine], pending: [], me, online: [], othersReadSeq: 0 });
    const again = chatMessages({
      channel: c1,
      confirmed: [a, mine],
      pending: [],
      me,
      online: [onlineUser('u-x')],
      othersReadSeq: 0,
    });
    expect(again[0]).toBe(first[0]); // someone came online: the other's row is untouched
    expect(again[1]).not.toBe(first[1]); // my row's mark went from sent to delivered
    expect(again[1]!.status).toBe('delivered');
    const edited = chatMessages({
      channel: c1,
      confirmed: [{ ...a, content: 'new' }, mine],
      pending: [],
      me,
      online: [onlineUser('u-x')],
      othersReadSeq: 0,
    });
    expect(edited[0]!.content).toBe('new');
    expect(edited[1]).toBe(again[1]);
  });
});
