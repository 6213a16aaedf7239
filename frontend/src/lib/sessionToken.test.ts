/**
 * The room token a session joins with follows the one this browser stores for the room: another tab that registered
 * to claim the room (or opened it from the dashboard) stored the owner's new token, and the replaced one no longer
 * opens the room. A rejoin takes the stored token; a refusal never clears a newer token another tab stored.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { C } from '@ephemera/proto/client';
import { me, workspace } from '../state/testData.ts';
import { readAuth, saveAuth } from './storage.ts';
import { startFakeSession, testAuth } from './testing/fakeSession.ts';

const ws = workspace([]);
const flush = () => vi.advanceTimersByTimeAsync(0);
const memory = new Map<string, string>();
const ownerToken = 'own'.repeat(8);

describe('RoomSession: the room token this browser holds', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    memory.clear();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => memory.get(k) ?? null,
      setItem: (k: string, v: string) => memory.set(k, v),
      removeItem: (k: string) => memory.delete(k),
    });
    saveAuth(testAuth);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a rejoin uses the token another tab stored for the room (the claim replaced the guest token)', async () => {
    const { socket, session, callbacks } = startFakeSession((event, payload) =>
      event === C.joinWorkspace && payload.userToken !== readAuth()?.userToken
        ? { success: false, code: 'NOT_AUTHENTICATED', message: 'Failed to join workspace' }
        : { success: true, user: me, workspace: ws },
    );
    socket.up();
    await flush();
    expect(socket.last(C.joinWorkspace).userToken).toBe(testAuth.userToken);
    saveAuth({ ...testAuth, userToken: ownerToken }); // the other tab registered and claimed the room
    socket.drop();
    socket.up();
    await flush();
    expect(socket.last(C.joinWorkspace).userToken).toBe(ownerToken);
    expect(callbacks.onJoinRefused).not.toHaveBeenCalled();
    expect(session.fileAccess().userToken).toBe(ownerToken); // files follow the token too
    expect(readAuth()?.userToken).toBe(ownerToken);
  });

  it('a refused join leaves a newer token another tab stored for the room', async () => {
    const { socket, callbacks } = startFakeSession((event) => {
      if (event !== C.joinWorkspace) return { success: true };
      saveAuth({ ...testAuth, userToken: ownerToken }); // stored while this join was on its way
      return { success: false, code: 'NOT_AUTHENTICATED', message: 'Failed to join workspace' };
    });
    socket.up();
    await flush();
    expect(callbacks.onJoinRefused).toHaveBeenCalled();
    expect(readAuth()?.userToken).toBe(ownerToken);
  });

  it('a refused join of the stored token clears it, as before', async () => {
    const { socket, callbacks } = startFakeSession(() => ({
      success: false,
      code: 'KICKED',
      message: 'You were removed from this room',
    }));
    socket.up();
    await flush();
    expect(callbacks.onJoinRefused).toHaveBeenCalled();
    expect(readAuth()).toBeNull();
  });
});
