import { beforeEach, describe, it, expect } from 'vitest';
import { loadArea, setLocale } from '../i18n/i18n.ts';
import { NOTIFICATION_BODY_MAX, notificationContent, notifyReason, type NotifyInput } from './desktopNotifications.ts';

const base: NotifyInput = {
  message: { authorId: 'u-bob', type: 'text', content: 'hello' },
  channelType: 'dm',
  selfId: 'u-alice',
  selfName: 'alice',
  selfStatus: 'away',
  tabVisible: false,
  enabled: true,
};
const topic = (content: string): NotifyInput => ({
  ...base,
  channelType: 'topic',
  message: { ...base.message, content },
});

describe('which messages show a desktop notification (notifications.md N2, N3)', () => {
  it('a direct message or a mention of the reader, while the tab is hidden', () => {
    expect(notifyReason(base)).toBe('dm');
    expect(notifyReason(topic('hey @Alice, look'))).toBe('mention');
    expect(notifyReason(topic('hello everyone'))).toBeNull();
    expect(notifyReason(topic('mail alice@example.com'))).toBeNull();
  });
  it('none while the tab is visible, while Busy, when not turned on, for own or system messages', () => {
    expect(notifyReason({ ...base, tabVisible: true })).toBeNull();
    expect(notifyReason({ ...base, selfStatus: 'busy' })).toBeNull();
    expect(notifyReason({ ...base, enabled: false })).toBeNull();
    expect(notifyReason({ ...base, message: { ...base.message, authorId: 'u-alice' } })).toBeNull();
    expect(notifyReason({ ...base, message: { ...base.message, type: 'system' } })).toBeNull();
    expect(notifyReason({ ...base, selfId: null })).toBeNull();
  });
});

describe("a notification's text (N4)", () => {
  beforeEach(async () => {
    await setLocale('en', { save: false });
    await loadArea('roomside');
  });
  it('the sender for a DM, the sender and channel for a mention; the plain text, shortened', () => {
    expect(notificationContent('dm', 'bob', '', 'hi **there**')).toEqual({ title: 'bob', body: 'hi there' });
    expect(notificationContent('mention', 'bob', 'general', '@alice\n\nsee  `this`')).toEqual({
      title: 'bob in #general',
      body: '@alice see this',
    });
    const long = notificationContent('dm', 'bob', '', 'x'.repeat(500)).body;
    expect(long).toHaveLength(NOTIFICATION_BODY_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
  it('in the active language', async () => {
    await setLocale('de', { save: false });
    expect(notificationContent('mention', 'bob', 'general', 'hi').title).toBe('bob in #general');
    expect(notificationContent('mention', 'bob', 'general', 'hi').title).not.toMatch(/roomside/);
  });
});
