/** A RoomSession started over a FakeSocket, for the session and command tests (one setup, not one per test file). */
import { vi } from 'vitest';
import { RoomSession } from '../session.ts';
import type { RoomConnection, RoomSocket } from '../socket.ts';
import { FakeSocket, type Handler } from './fakeSocket.ts';

export const testAuth = {
  workspaceId: 'w1',
  userToken: 'tok'.repeat(8),
  username: 'alice',
  roomName: 'team',
  password: null,
};

export function startFakeSession(handler: Handler) {
  const socket = new FakeSocket(handler);
  const callbacks = { onJoinRefused: vi.fn(), onWorkspaceDeleted: vi.fn(), onKicked: vi.fn() };
  const conn: RoomConnection = { socket: socket as unknown as RoomSocket, dispose: () => socket.removeAllListeners() };
  const session = new RoomSession(testAuth, callbacks, () => conn);
  session.start();
  return { socket, session, callbacks };
}
