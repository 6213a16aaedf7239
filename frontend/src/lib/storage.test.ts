import { beforeEach, describe, expect, it } from 'vitest';
import {
  AUTH_KEY,
  LAST_WORKSPACE_KEY,
  clearRoomData,
  getLastChannel,
  lastChannelKey,
  readAuth,
  sameRoomName,
  saveAuth,
  setLastChannel,
  type KeyValueStore,
} from './storage.ts';

class MemoryStore implements KeyValueStore {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

const record = { workspaceId: 'w1', userToken: 't'.repeat(32), username: 'alice', roomName: 'Team', password: null };

describe('stored room data', () => {
  let store: MemoryStore;
  beforeEach(() => {
    store = new MemoryStore();
  });

  it('saves and reads the auth record with lastWorkspaceId', () => {
    saveAuth(record, store);
    expect(readAuth(store)).toEqual(record);
    expect(store.getItem(LAST_WORKSPACE_KEY)).toBe('w1');
  });
  it('ignores a malformed record', () => {
    store.setItem(AUTH_KEY, '{not json');
    expect(readAuth(store)).toBeNull();
    store.setItem(AUTH_KEY, JSON.stringify({ workspaceId: 'w1' }));
    expect(readAuth(store)).toBeNull();
  });
  it('remembers the last channel per room', () => {
    setLastChannel('w1', 'c1', store);
    setLastChannel('w2', 'c9', store);
    expect(getLastChannel('w1', store)).toBe('c1');
    expect(store.getItem(lastChannelKey('w2'))).toBe('c9');
  });
  it("clearRoomData removes auth, lastWorkspaceId and that room's last channel", () => {
    saveAuth(record, store);
    setLastChannel('w1', 'c1', store);
    setLastChannel('other', 'c2', store);
    clearRoomData(null, store);
    expect(readAuth(store)).toBeNull();
    expect(store.getItem(LAST_WORKSPACE_KEY)).toBeNull();
    expect(getLastChannel('w1', store)).toBeNull();
    expect(getLastChannel('other', store)).toBe('c2');
  });
  it('room names compare case-insensitively', () => {
    expect(sameRoomName('Team', 'team')).toBe(true);
    expect(sameRoomName('team', 'team2')).toBe(false);
  });
  it('works without storage', () => {
    expect(readAuth(null)).toBeNull();
    expect(() => saveAuth(record, null)).not.toThrow();
  });
});
