/**
 * A big room on the client (docs/protocol.md: presence-batch, fetch-online-users): a presence-batch frame applied as
 * the single events it stands for, in order; the typers counted beyond the ones shown; the next page of the online
 * list fetched on demand (the list's end scrolled into view). Loaded on demand (a chunk of its own): small rooms never
 * need it, and the room page's initial JavaScript stays within its budget.
 */
import { C } from '@ephemera/proto/client';
import type { PresenceBatch } from '@ephemera/proto';
import { request, type RoomSocket } from './socket.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';

const REQUEST_TIMEOUT_MS = 15_000;

/** A frame of this room (sessionEvents.ts checks the room), applied to the store. */
export function applyPresenceBatch(p: PresenceBatch, dispatch: (action: RoomAction) => void): void {
  if (!Array.isArray(p.changes)) return;
  for (const action of presenceBatchActions(p, Date.now())) dispatch(action);
}

/** The store actions a presence-batch frame stands for: what its changes' single events would dispatch, in order. */
export function presenceBatchActions(p: PresenceBatch, now: number): RoomAction[] {
  const actions: RoomAction[] = [];
  for (const c of p.changes) {
    if (c?.kind === 'joined' && c.user?.id) actions.push({ type: 'userJoined', user: c.user });
    else if (c?.kind === 'left' && c.userId) {
      actions.push({ type: 'userLeft', userId: c.userId });
      if (c.membershipEnded) actions.push({ type: 'memberLeft', userId: c.userId });
    } else if (c?.kind === 'status' && c.userId && c.status)
      actions.push({ type: 'presenceUpdated', userId: c.userId, status: c.status });
  }
  for (const t of p.typing ?? [])
    if (t?.channelId && typeof t.others === 'number')
      actions.push({ type: 'typingOthers', channelId: t.channelId, others: t.others, now });
  return actions;
}

const inFlight = new WeakSet<RoomSocket>();

/** The online list's next page, if there is one and none is being fetched on this connection. */
export async function loadMoreOnline(
  socket: RoomSocket | null,
  store: { getState(): RoomState; dispatch(action: RoomAction): void },
): Promise<void> {
  const state = store.getState();
  const workspaceId = state.workspace?.id;
  if (!socket || !workspaceId || state.onlineNext === null || inFlight.has(socket)) return;
  inFlight.add(socket);
  try {
    const page = await request(
      socket,
      C.fetchOnlineUsers,
      { workspaceId, after: state.onlineNext },
      REQUEST_TIMEOUT_MS,
    );
    if (!page.success) return;
    // the list as it is now (joins and leaves came meanwhile) with the page's users it does not hold yet
    const now = store.getState();
    const known = new Set(now.online.map((u) => u.id));
    const users = [...now.online, ...page.users.filter((u) => !known.has(u.id))];
    store.dispatch({
      type: 'onlineUsers',
      users,
      onlineCount: Math.max(page.onlineCount, users.length),
      next: page.next,
    });
  } catch {
    // a timeout: the next scroll asks again
  } finally {
    inFlight.delete(socket);
  }
}
