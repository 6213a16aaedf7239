/**
 * A big room on the client (docs/protocol.md: presence-batch, fetch-online-users): a presence-batch frame applied as
 * the single events it stands for, in order; the typers counted beyond the ones shown; the next page of the online
 * list fetched on demand (the list's end scrolled into view).
 */
import { C, S } from '@ephemera/proto/client';
import type { PresenceBatch } from '@ephemera/proto';
import { request, type RoomSocket } from './socket.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';

const REQUEST_TIMEOUT_MS = 15_000;

/** Registered once per connection with the room's other events (sessionEvents.ts). */
export function bindPresenceBatch(
  socket: RoomSocket,
  sink: { readonly workspaceId: string; dispatch(action: RoomAction): void },
): void {
  socket.on(S.presenceBatch, (p: PresenceBatch) => {
    if (!p || p.workspaceId !== sink.workspaceId || !Array.isArray(p.changes)) return;
    for (const action of presenceBatchActions(p, Date.now())) sink.dispatch(action);
  });
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
  state: RoomState,
  dispatch: (action: RoomAction) => void,
): Promise<void> {
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
    if (page.success)
      dispatch({ type: 'onlineMore', users: page.users, onlineCount: page.onlineCount, next: page.next });
  } catch {
    // a timeout: the next scroll asks again
  } finally {
    inFlight.delete(socket);
  }
}
