/**
 * Big rooms (docs/architecture.md "Big rooms", docs/protocol.md presence-batch and fetch-online-users) with real
 * clients, in both modes. The target runs with the thresholds lowered (BIG_ROOM_SIZES below), so a room of a few
 * users is "big": a gateway holding at least `coalesceFromSockets` of its sockets sends presence changes in
 * presence-batch frames, the join sends the online list's first page and its count, fetch-online-users pages the
 * rest, and at most BIG_ROOM.typersShown typers per public channel are forwarded. A room below the threshold keeps
 * the single events. In distributed mode the observers are on gateway A, the joiners on gateway B.
 */
import { describe, it, expect, afterAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  BIG_ROOM,
  C,
  S,
  type ClientAcks,
  type OnlineUser,
  type PresenceBatch,
  type PresenceChange,
  type ServerEvents,
} from '@ephemera/proto';
import type { TargetRef } from './target-ref.ts';
import { collect, connect, createRoom, joinRoom, next, request, socketJoin, uniqueName } from '../helpers/clients.ts';

/** What the target is started with: a room of 3 sockets on a gateway is big, the online list's pages are of 3. */
export const BIG_ROOM_SIZES = { coalesceFromSockets: 3, onlinePageSize: 3 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A window, the bus and the other replica: long enough for a coalesced frame to have come. */
const SETTLED_MS = BIG_ROOM.coalesceWindowMs + 700;

type OnlineUsers = Parameters<ServerEvents[typeof S.onlineUsers]>[0];

export function bigRoomSuite(target: TargetRef) {
  const open: Socket[] = [];
  afterAll(() => open.forEach((s) => s.disconnect()));

  /** alice (owner) and `observers` members on A, in a business room without a cap; a public channel. */
  async function bigRoom(observers: string[]) {
    const { A } = target();
    const created = await createRoom(A, uniqueName('big'), 'alice');
    const { workspaceId } = created;
    await target().changeTier!(workspaceId, 'business');
    const alice = await socketJoin(A, workspaceId, 'alice', created.userToken);
    open.push(alice.socket);
    const cap = await request(alice.socket, C.setWorkspaceMaxUsers, { workspaceId, maxUsers: 'unlimited' });
    if (!cap.success) throw new Error(cap.message);
    const general = await request(alice.socket, C.createChannel, { workspaceId, name: 'general', isPrivate: false });
    if (!general.success) throw new Error(general.message);
    const watchers: Socket[] = [alice.socket];
    for (const name of observers) {
      const joined = await joinRoom(A, workspaceId, name);
      const s = await socketJoin(A, workspaceId, name, joined.userToken);
      open.push(s.socket);
      watchers.push(s.socket);
    }
    await sleep(SETTLED_MS); // the setup's own presence frames have come
    return { workspaceId, channelId: general.channel.id, alice: alice.socket, watchers };
  }

  /** `names` join the room over B (HTTP, then a socket each); their user ids by name. */
  async function joinAll(workspaceId: string, names: string[]) {
    const sockets = new Map<string, Socket>();
    const ids = new Map<string, string>();
    for (const name of names) {
      const joined = await joinRoom(target().B, workspaceId, name);
      const s = await socketJoin(target().B, workspaceId, name, joined.userToken);
      open.push(s.socket);
      sockets.set(name, s.socket);
      ids.set(name, joined.user.id);
    }
    return { sockets, ids };
  }

  const changesOf = (batches: PresenceBatch[], workspaceId: string): PresenceChange[] =>
    batches.filter((b) => b.workspaceId === workspaceId).flatMap((b) => b.changes);

  describe('big rooms', () => {
    it('joins, status changes and leaves reach a big room in presence-batch frames whose union is every change, and no single events', async () => {
      const room = await bigRoom(['obs1', 'obs2', 'obs3']);
      const watcher = room.watchers[1]!;
      const batches = collect<PresenceBatch>(watcher, S.presenceBatch);
      const singles = [
        ...collect(watcher, S.userJoined),
        ...collect(watcher, S.userLeft),
        ...collect(watcher, S.userPresenceUpdated),
      ];
      const names = ['j1', 'j2', 'j3', 'j4', 'j5'];
      const { sockets, ids } = await joinAll(room.workspaceId, names);
      const busy = await request(sockets.get('j2')!, C.updatePresence, {
        workspaceId: room.workspaceId,
        status: 'busy',
      });
      expect(busy).toEqual({ success: true, status: 'busy' });
      await sleep(SETTLED_MS);
      for (const name of ['j1', 'j3']) sockets.get(name)!.disconnect();
      const leaves = await request(sockets.get('j4')!, C.leaveWorkspace, { workspaceId: room.workspaceId });
      expect(leaves.success).toBe(true);
      await sleep(SETTLED_MS * 2);

      const changes = changesOf(batches, room.workspaceId);
      const joined = changes.filter((c) => c.kind === 'joined').map((c) => c.user.id);
      expect(new Set(joined)).toEqual(new Set(names.map((n) => ids.get(n))));
      expect(joined).toHaveLength(names.length); // each once
      expect(changes.filter((c) => c.kind === 'status')).toEqual([
        { kind: 'status', userId: ids.get('j2'), status: 'busy' },
      ]);
      const left = changes.filter((c) => c.kind === 'left');
      expect(new Set(left.map((c) => c.userId))).toEqual(new Set(['j1', 'j3', 'j4'].map((n) => ids.get(n))));
      // j4 left the room for good: its leave says so (as user-left's membershipEnded does)
      expect(left.some((c) => c.userId === ids.get('j4') && c.membershipEnded)).toBe(true);
      expect(batches.length).toBeLessThan(changes.length); // coalesced: fewer frames than changes
      expect(singles).toEqual([]);
    });

    it('the join sends the first page and the count; fetch-online-users pages the rest, every online user once', async () => {
      const room = await bigRoom(['p1', 'p2']);
      const { ids } = await joinAll(room.workspaceId, ['p3', 'p4', 'p5']);
      const latecomer = await joinRoom(target().A, room.workspaceId, 'p6');
      const { socket } = await (async () => {
        const s = await connect(target().A);
        open.push(s);
        const first = next<OnlineUsers>(s, S.onlineUsers);
        const ack = await request(s, C.joinWorkspace, {
          workspaceId: room.workspaceId,
          username: 'p6',
          userToken: latecomer.userToken,
        });
        expect(ack.success).toBe(true);
        const list = await first;
        expect(list.users).toHaveLength(BIG_ROOM_SIZES.onlinePageSize);
        expect(list.onlineCount).toBe(7); // alice, p1..p6
        expect(list.next).toBe(list.users.at(-1)!.id);
        return { socket: s };
      })();
      const seen: OnlineUser[] = [];
      let after: string | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const page: ClientAcks['fetch-online-users'] = await request(socket, C.fetchOnlineUsers, {
          workspaceId: room.workspaceId,
          after,
          limit: 3,
        });
        if (!page.success) throw new Error(page.message);
        expect(page.users.length).toBeLessThanOrEqual(3);
        expect(page.onlineCount).toBe(7);
        seen.push(...page.users);
        after = page.next;
        if (after === null) break;
      }
      expect(after).toBeNull();
      const seenIds = seen.map((u) => u.id);
      expect(seenIds).toHaveLength(7);
      expect(new Set(seenIds).size).toBe(7);
      for (const id of ids.values()) expect(seenIds).toContain(id);
      expect(seen.map((u) => u.username).sort()).toEqual(['alice', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']);

      // bad input changes nothing and says why; another room's list is not this member's to read
      for (const bad of [
        { workspaceId: room.workspaceId, limit: 0 },
        { workspaceId: room.workspaceId, limit: 101 },
      ]) {
        const refused = await request(socket, C.fetchOnlineUsers, bad);
        expect(refused.success ? 'accepted' : refused.code).toBe('VALIDATION');
      }
      const other = await createRoom(target().A, uniqueName('other'), 'zed');
      const elsewhere = await request(socket, C.fetchOnlineUsers, { workspaceId: other.workspaceId });
      expect(elsewhere.success ? 'accepted' : elsewhere.code).toBe('FORBIDDEN');
    });

    it(`typing in a big room's public channel: ${BIG_ROOM.typersShown} typers shown, the others counted; a shown typer who stops is replaced`, async () => {
      const room = await bigRoom(['t0', 'tw']);
      const watcher = room.watchers[2]!;
      const names = ['t1', 't2', 't3', 't4', 't5'];
      const { sockets, ids } = await joinAll(room.workspaceId, names);
      await sleep(SETTLED_MS);
      const typing = collect<{ userId: string; channelId: string }>(watcher, S.userTyping);
      const stopped = collect<{ userId: string }>(watcher, S.userStoppedTyping);
      const batches = collect<PresenceBatch>(watcher, S.presenceBatch);
      for (const name of names) {
        const ack = await request(sockets.get(name)!, C.typingStart, { channelId: room.channelId });
        expect(ack).toEqual({ success: true });
      }
      await sleep(SETTLED_MS);
      const shown = [...new Set(typing.map((t) => t.userId))];
      expect(shown).toEqual(names.slice(0, BIG_ROOM.typersShown).map((n) => ids.get(n)));
      const counts = batches.flatMap((b) => b.typing ?? []).filter((t) => t.channelId === room.channelId);
      expect(counts.at(-1)?.others).toBe(names.length - BIG_ROOM.typersShown);

      // t1 stops: its stop is forwarded and t4 (the first one waiting) is shown; one fewer is counted
      typing.length = 0;
      await request(sockets.get('t1')!, C.typingStop, { channelId: room.channelId });
      await sleep(SETTLED_MS);
      expect(stopped.map((s) => s.userId)).toEqual([ids.get('t1')]);
      expect(typing.map((t) => t.userId)).toEqual([ids.get('t4')]);
      const after = batches.flatMap((b) => b.typing ?? []).filter((t) => t.channelId === room.channelId);
      expect(after.at(-1)?.others).toBe(names.length - BIG_ROOM.typersShown - 1);
    });

    it('a room below the threshold keeps the single events (user-joined, user-left, typing) and no presence-batch', async () => {
      const { A, B } = target();
      const created = await createRoom(A, uniqueName('small'), 'alice');
      const alice = await socketJoin(A, created.workspaceId, 'alice', created.userToken);
      open.push(alice.socket);
      const batches = collect(alice.socket, S.presenceBatch);
      const bob = await joinRoom(B, created.workspaceId, 'bob');
      const joinedSeen = next<{ user: OnlineUser }>(alice.socket, S.userJoined, (p) => p.user.id === bob.user.id);
      const bobSocket = await socketJoin(B, created.workspaceId, 'bob', bob.userToken);
      expect((await joinedSeen).user.username).toBe('bob');
      const leftSeen = next(alice.socket, S.userLeft, (p: { userId: string }) => p.userId === bob.user.id);
      bobSocket.socket.disconnect();
      await leftSeen;
      await sleep(SETTLED_MS);
      expect(batches).toEqual([]);
      const list = await (async () => {
        const again = await connect(A);
        open.push(again);
        const first = next<OnlineUsers>(again, S.onlineUsers);
        await request(again, C.joinWorkspace, {
          workspaceId: created.workspaceId,
          username: 'alice',
          userToken: created.userToken,
        });
        return first;
      })();
      expect(list).toEqual({
        workspaceId: created.workspaceId,
        users: [expect.objectContaining({ username: 'alice' })],
        onlineCount: 1,
        next: null,
      });
    });
  });
}
