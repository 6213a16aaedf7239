/**
 * A presence signal (joined, left, status, typing) on this replica's sockets: to the room, or to the few who can read
 * a private channel; a big room's through the coalescer (coalesce.ts). Apart from the log's events (deliver.ts)
 * because presence comes from the presence bus, not the log.
 */
import { S, type PresenceSignal } from '@ephemera/proto';
import type { GatewayServer as Server } from './socket-types.ts';
import { workspaceRoom, userRoom } from './rooms.ts';
import type { PresenceCoalescer } from './coalesce.ts';

/** A presence signal to the room's sockets here; a big room's changes through the coalescer (coalesce.ts). */
export function deliverPresence(io: Server, signal: PresenceSignal, coalescer?: PresenceCoalescer): void {
  if (coalescer && queued(coalescer, signal)) return;
  switch (signal.kind) {
    case 'joined':
      io.to(workspaceRoom(signal.workspaceId)).emit(S.userJoined, {
        workspaceId: signal.workspaceId,
        user: signal.user,
      });
      return;
    case 'left':
      io.to(workspaceRoom(signal.workspaceId)).emit(S.userLeft, {
        workspaceId: signal.workspaceId,
        userId: signal.userId,
        username: signal.username,
      });
      return;
    case 'status':
      io.to(workspaceRoom(signal.workspaceId)).emit(S.userPresenceUpdated, {
        workspaceId: signal.workspaceId,
        userId: signal.userId,
        status: signal.status,
      });
      return;
    case 'typing': {
      // Only those who can read the channel. A public channel's typing goes to the whole room in one broadcast,
      // the typer's own sockets included (clients drop their own): socket.io's uWS fast path publishes once only
      // without an `except` (docs/product/performance.md W2). A private channel or DM names its few members, minus
      // the typer.
      const { workspaceId, channelId, userId, username } = signal;
      const to =
        signal.audience.kind === 'workspace'
          ? io.to(workspaceRoom(workspaceId))
          : io.to(signal.audience.userIds.filter((id) => id !== userId).map(userRoom));
      if (signal.typing) to.emit(S.userTyping, { workspaceId, channelId, userId, username });
      else to.emit(S.userStoppedTyping, { workspaceId, channelId, userId });
      return;
    }
  }
}

/** True when the coalescer took the signal (a big room's change or public-channel typing). */
function queued(coalescer: PresenceCoalescer, signal: PresenceSignal): boolean {
  switch (signal.kind) {
    case 'joined':
      return coalescer.change(signal.workspaceId, { kind: 'joined', user: signal.user });
    case 'left':
      return coalescer.change(signal.workspaceId, { kind: 'left', userId: signal.userId, username: signal.username });
    case 'status':
      return coalescer.change(signal.workspaceId, { kind: 'status', userId: signal.userId, status: signal.status });
    case 'typing':
      return signal.audience.kind === 'workspace' && coalescer.typing(signal);
  }
}
