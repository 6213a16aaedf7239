import { describe, expect, it, vi } from 'vitest';
import { C, S } from '@ephemera/proto/client';
import { ChatCommands } from './chatCommands.ts';
import { MSG_DELETE_FAILED, MSG_EDIT_FAILED } from './commandTexts.ts';
import { RoomSession } from './session.ts';
import type { RoomConnection, RoomSocket } from './socket.ts';
import { createStore } from '../state/store.ts';
import { initialRoomState, roomReducer, type RoomState } from '../state/roomState.ts';
import { channel, me, message, other, workspace } from '../state/testData.ts';

type Listener = (...args: any[]) => void;
type Answer = (event: string, payload: any) => unknown;

/** Enough of a Socket.IO client socket: connected, on, timeout().emit with an ack. */
class FakeSocket {
  connected = true;
  sendBuffer: unknown[] = [];
  emitted: { event: string; payload: any }[] = [];
  private listeners = new Map<string, Listener[]>();
  constructor(public answer: Answer) {}
  on(event: string, fn: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    return this;
  }
  removeAllListeners() {
    this.listeners.clear();
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
  connect() {
    return this;
  }
  disconnect() {
    return this;
  }
  timeout() {
    return {
      emit: (event: string, payload: any, cb: (err: Error | null, ack?: unknown) => void) => {
        this.emitted.push({ event, payload });
        void Promise.resolve(this.answer(event, payload)).then((a) => cb(null, a));
      },
    };
  }
  payloads(event: string) {
    return this.emitted.filter((e) => e.event === event).map((e) => e.payload);
  }
}

function setup(answer: Answer) {
  const socket = new FakeSocket(answer);
  const store = createStore(
    roomReducer,
    [
      { type: 'joined' as const, workspace: workspace([channel('c1')]), user: me, now: 1 },
      {
        type: 'messagesMerged' as const,
        messages: [message(1), message(2, { authorId: me.id, authorName: me.username, content: 'mine' })],
        source: 'history' as const,
        page: { channelId: 'c1', hasMore: false },
      },
    ].reduce(roomReducer, initialRoomState()),
  );
  const chat = new ChatCommands({
    socket: () => socket as unknown as RoomSocket,
    state: () => store.getState(),
    dispatch: (a) => store.dispatch(a),
    workspaceId: () => 'w1',
    userToken: () => 'token',
  });
  chat.attach(socket as unknown as RoomSocket);
  const msg = (id: string) => store.getState().messages.c1!.find((m) => m.id === id);
  return { socket, store, chat, msg, state: (): RoomState => store.getState() };
}

const refused = { success: false, code: 'FORBIDDEN', message: 'Only the author can do that' };

describe('edit-message', () => {
  it('sends the trimmed text and applies the stored message', async () => {
    const t = setup((_e, p) => ({
      success: true,
      message: { ...message(2), content: p.newContent, isEdited: true, editedAt: '2030-01-01T00:05:00.000Z' },
    }));
    expect(await t.chat.editMessage('c1', 'm2', '  better  ')).toBe(true);
    expect(t.socket.payloads(C.editMessage)).toEqual([{ messageId: 'm2', newContent: 'better', workspaceId: 'w1' }]);
    expect(t.msg('m2')).toMatchObject({ content: 'better', isEdited: true, editedAt: '2030-01-01T00:05:00.000Z' });
  });
  it('an empty or unchanged edit is not sent', async () => {
    const t = setup(() => ({ success: true }));
    expect(await t.chat.editMessage('c1', 'm2', '   ')).toBe(false);
    expect(await t.chat.editMessage('c1', 'm2', ' mine ')).toBe(false);
    expect(t.socket.emitted).toEqual([]);
  });
  it('a refusal leaves the message and says "Failed to edit message"', async () => {
    const t = setup(() => refused);
    expect(await t.chat.editMessage('c1', 'm2', 'new')).toBe(false);
    expect(t.msg('m2')!.content).toBe('mine');
    expect(t.state().notice).toBe(MSG_EDIT_FAILED);
  });
});

describe('delete-message', () => {
  it('removes the message when the server agrees', async () => {
    const t = setup(() => ({ success: true, messageId: 'm2' }));
    expect(await t.chat.deleteMessage('c1', 'm2')).toBe(true);
    expect(t.socket.payloads(C.deleteMessage)).toEqual([{ messageId: 'm2', workspaceId: 'w1' }]);
    expect(t.msg('m2')).toBeUndefined();
  });
  it('a refusal keeps it and says "Failed to delete message"', async () => {
    const t = setup(() => refused);
    expect(await t.chat.deleteMessage('c1', 'm1')).toBe(false);
    expect(t.msg('m1')).toBeDefined();
    expect(t.state().notice).toBe(MSG_DELETE_FAILED);
  });
});

describe('add-reaction', () => {
  it('shows the toggle at once, then takes the server map', async () => {
    let release!: (v: unknown) => void;
    const t = setup(
      () =>
        new Promise((r) => {
          release = r;
        }),
    );
    const done = t.chat.react('c1', 'm1', '👍');
    expect(t.msg('m1')!.reactions).toEqual({ '👍': [me.id] });
    release({ success: true, messageId: 'm1', reactions: { '👍': [other.id, me.id] } });
    expect(await done).toBe(true);
    expect(t.msg('m1')!.reactions).toEqual({ '👍': [other.id, me.id] });
    expect(t.socket.payloads(C.addReaction)).toEqual([{ messageId: 'm1', emoji: '👍', workspaceId: 'w1' }]);
  });
  it('a refusal puts the old map back', async () => {
    const t = setup(() => refused);
    expect(await t.chat.react('c1', 'm1', '😮')).toBe(false);
    expect(t.msg('m1')!.reactions).toEqual({});
  });
});

describe('live events', () => {
  it("message-edited, reaction-added and message-deleted change the held message; another room's are ignored", () => {
    const t = setup(() => ({ success: true }));
    t.socket.fire(S.messageEdited, {
      workspaceId: 'w1',
      channelId: 'c1',
      messageId: 'm1',
      content: 'edited',
      isEdited: true,
      editedAt: 'x',
    });
    t.socket.fire(S.reactionAdded, {
      workspaceId: 'w1',
      channelId: 'c1',
      messageId: 'm1',
      emoji: '🙏',
      userId: other.id,
      reactions: { '🙏': [other.id] },
    });
    t.socket.fire(S.messageEdited, {
      workspaceId: 'other-room',
      channelId: 'c1',
      messageId: 'm2',
      content: 'leak',
      isEdited: true,
      editedAt: 'x',
    });
    expect(t.msg('m1')).toMatchObject({ content: 'edited', isEdited: true, reactions: { '🙏': [other.id] } });
    expect(t.msg('m2')!.content).toBe('mine');
    t.socket.fire(S.messageDeleted, { workspaceId: 'w1', channelId: 'c1', messageId: 'm1' });
    expect(t.msg('m1')).toBeUndefined();
  });
  it('user-typing and user-stopped-typing keep the typing entries', () => {
    const t = setup(() => ({ success: true }));
    t.socket.fire(S.userTyping, { workspaceId: 'w1', channelId: 'c1', userId: other.id, username: 'bob' });
    expect(Object.keys(t.state().typing.c1 ?? {})).toEqual([other.id]);
    t.socket.fire(S.userStoppedTyping, { workspaceId: 'w1', channelId: 'c1', userId: other.id });
    expect(t.state().typing.c1).toBeUndefined();
  });
  it('typing() emits typing-start / typing-stop for the channel', () => {
    const t = setup(() => ({ success: true }));
    t.chat.typing('c1', true);
    t.chat.typing('c1', false);
    expect(t.socket.emitted).toEqual([
      { event: C.typingStart, payload: { channelId: 'c1' } },
      { event: C.typingStop, payload: { channelId: 'c1' } },
    ]);
  });
});

describe('link preview request', () => {
  it('POSTs the address with the room token and returns a valid preview', async () => {
    const t = setup(() => ({}));
    const preview = {
      type: 'other',
      url: 'https://x.y/',
      title: 'T',
      description: null,
      image: null,
      thumbnail: null,
      author: null,
      siteName: null,
      postId: null,
      videoId: null,
    };
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify(preview), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    try {
      expect(await t.chat.fetchLinkPreview('https://x.y/')).toEqual({ ok: true, preview });
      const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('/api/link-preview/fetch');
      expect(init.method).toBe('POST');
      expect((init.headers as Record<string, string>).Authorization).toBe('Bearer token');
      expect(JSON.parse(String(init.body))).toEqual({ url: 'https://x.y/' });
      fetchMock.mockImplementationOnce(
        async () =>
          new Response(JSON.stringify({ success: false, message: 'This link cannot be previewed' }), { status: 422 }),
      );
      expect(await t.chat.fetchLinkPreview('http://10.0.0.1/')).toEqual({
        ok: false,
        message: 'This link cannot be previewed',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('send-message with a reply and a link preview (session)', () => {
  it('sends replyTo and linkPreview as ids/addresses only', async () => {
    const socket = new FakeSocket((event, p) => {
      if (event === C.joinWorkspace) return { success: true, workspace: workspace([channel('c1')]), user: me };
      if (event === C.sendMessage)
        return { success: true, message: message(9, { clientMessageId: p.clientMessageId, authorId: me.id }) };
      return { success: true, messages: [], hasMore: false, summaries: [], lastSeq: 0 };
    });
    socket.connected = false;
    const conn: RoomConnection = { socket: socket as unknown as RoomSocket, dispose: () => {} };
    const session = new RoomSession(
      { workspaceId: 'w1', userToken: 't'.repeat(20), username: 'alice', roomName: 'team', password: null },
      { onJoinRefused: () => {}, onWorkspaceDeleted: () => {}, onKicked: () => {} },
      () => conn,
    );
    session.start();
    socket.connected = true;
    socket.fire('connect');
    await vi.waitFor(() => expect(session.state.user?.id).toBe(me.id));
    session.selectChannel('c1');
    expect(session.sendMessage('a reply', { replyTo: { messageId: 'm1' }, linkPreview: { url: 'https://x.y/' } })).toBe(
      true,
    );
    expect(session.sendMessage('plain')).toBe(true);
    await vi.waitFor(() => expect(socket.payloads(C.sendMessage)).toHaveLength(2));
    const [withExtras, plain] = socket.payloads(C.sendMessage);
    expect(withExtras).toMatchObject({
      channelId: 'c1',
      content: 'a reply',
      type: 'text',
      replyTo: { messageId: 'm1' },
      linkPreview: { url: 'https://x.y/' },
    });
    expect(plain).not.toHaveProperty('replyTo');
    expect(plain).not.toHaveProperty('linkPreview');
    session.stop();
  });
});
