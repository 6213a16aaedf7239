import { describe, expect, it } from 'vitest';
import type { Message } from '@ephemera/proto';
import { initialRoomState, type RoomState } from '../state/roomState.ts';
import {
  CLOCK_SKEW_MS,
  newIncomingMessages,
  readSoundEnabled,
  setSoundEnabled,
  shouldPlay,
  SOUND_PREF_KEY,
  type PlayInput,
} from './notificationSound.ts';

const base: PlayInput = {
  message: { authorId: 'bob', type: 'text', channelId: 'c-other' },
  selfId: 'alice',
  currentChannelId: 'c-current',
  tabVisible: true,
  soundEnabled: true,
  userInteracted: true,
};

describe('shouldPlay', () => {
  it("plays for another user's message in another channel", () => {
    expect(shouldPlay(base)).toBe(true);
  });
  it('not when sound is off, or before the user interacted with the page', () => {
    expect(shouldPlay({ ...base, soundEnabled: false })).toBe(false);
    expect(shouldPlay({ ...base, userInteracted: false })).toBe(false);
  });
  it('never for own or system messages, even in a hidden tab', () => {
    expect(shouldPlay({ ...base, message: { ...base.message, authorId: 'alice' } })).toBe(false);
    expect(shouldPlay({ ...base, tabVisible: false, message: { ...base.message, authorId: 'alice' } })).toBe(false);
    expect(shouldPlay({ ...base, message: { ...base.message, type: 'system' } })).toBe(false);
    expect(shouldPlay({ ...base, tabVisible: false, message: { ...base.message, type: 'system' } })).toBe(false);
  });
  it('the current channel: silent while the tab is visible, plays when hidden', () => {
    const here = { ...base.message, channelId: 'c-current' };
    expect(shouldPlay({ ...base, message: here })).toBe(false);
    expect(shouldPlay({ ...base, message: here, tabVisible: false })).toBe(true);
  });
  it('plays for file, image, voice messages too', () => {
    for (const type of ['file', 'image', 'video', 'voice'] as const)
      expect(shouldPlay({ ...base, message: { ...base.message, type } })).toBe(true);
  });
});

const T0 = Date.parse('2026-11-23T12:00:00Z');
let n = 0;
function msg(seq: number, channelId: string, at: number, authorId = 'bob'): Message {
  n += 1;
  return {
    id: `m${seq}-${n}`,
    clientMessageId: `cm${n}`,
    workspaceId: 'w',
    channelId,
    seq,
    authorId,
    authorName: authorId,
    profilePicture: null,
    timestamp: new Date(at).toISOString(),
    type: 'text',
    content: `hi ${seq}`,
  } as unknown as Message;
}
function state(patch: Partial<RoomState>): RoomState {
  return { ...initialRoomState(), everJoined: true, sessionStartedAt: T0, ...patch };
}

describe('newIncomingMessages', () => {
  it('finds a message new since the previous state', () => {
    const a = msg(1, 'c1', T0 + 1000);
    const b = msg(2, 'c1', T0 + 2000);
    const prev = state({ messages: { c1: [a] }, lastSeq: 1 });
    const next = state({ messages: { c1: [a, b] }, lastSeq: 2 });
    expect(newIncomingMessages(prev, next)).toEqual([b]);
  });
  it('nothing when the messages did not change', () => {
    const s = state({ messages: { c1: [msg(1, 'c1', T0)] }, lastSeq: 1 });
    expect(newIncomingMessages(s, { ...s, online: [] })).toEqual([]);
  });
  it('nothing before the first join (the initial load is not news)', () => {
    const prev = state({ everJoined: false });
    const next = state({ messages: { c1: [msg(5, 'c1', T0 + 10)] }, lastSeq: 5 });
    expect(newIncomingMessages(prev, next)).toEqual([]);
  });
  it('an older page or a channel history below the last seen seq is not news', () => {
    const old = msg(3, 'c2', T0 + 100);
    const prev = state({ messages: { c1: [msg(10, 'c1', T0 + 100)] }, lastSeq: 10 });
    const next = state({ messages: { ...prev.messages, c2: [old] }, lastSeq: 10 });
    expect(newIncomingMessages(prev, next)).toEqual([]);
  });
  it('history written before this session is not news, even past the last seen seq', () => {
    const prev = state({ lastSeq: 0 });
    const before = msg(4, 'c3', T0 - CLOCK_SKEW_MS - 1000);
    const next = state({ messages: { c3: [before] }, lastSeq: 4 });
    expect(newIncomingMessages(prev, next)).toEqual([]);
    // within the clock-skew allowance it counts
    const skewed = msg(5, 'c3', T0 - 1000);
    expect(newIncomingMessages(prev, state({ messages: { c3: [skewed] }, lastSeq: 5 }))).toEqual([skewed]);
  });
  it('new messages in several channels at once', () => {
    const prev = state({ messages: { c1: [] }, lastSeq: 0 });
    const x = msg(1, 'c1', T0 + 1);
    const y = msg(2, 'c2', T0 + 2);
    expect(newIncomingMessages(prev, state({ messages: { c1: [x], c2: [y] }, lastSeq: 2 }))).toEqual([x, y]);
  });
});

describe('sound preference', () => {
  function memoryStore() {
    const m = new Map<string, string>();
    return {
      getItem: (k: string) => m.get(k) ?? null,
      setItem: (k: string, v: string) => {
        m.set(k, v);
      },
      map: m,
    };
  }
  it('is on by default and stored under its key', () => {
    const s = memoryStore();
    expect(readSoundEnabled(s)).toBe(true);
    setSoundEnabled(false, s);
    expect(s.map.get(SOUND_PREF_KEY)).toBe('false');
    expect(readSoundEnabled(s)).toBe(false);
    setSoundEnabled(true, s);
    expect(readSoundEnabled(s)).toBe(true);
  });
  it('a broken storage reads as on', () => {
    expect(
      readSoundEnabled({
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {},
      }),
    ).toBe(true);
    expect(readSoundEnabled(null)).toBe(true);
  });
});
