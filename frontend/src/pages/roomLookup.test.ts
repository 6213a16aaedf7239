import { afterEach, describe, expect, it, vi } from 'vitest';
import { lookupRoom, startRoomLookup } from './roomLookup.ts';
import { loadRoomSession } from './roomSessionLoader.ts';
import { saveAuth } from '../lib/storage.ts';

// the joined room's chunk is not loaded in node: only whether its download starts is checked
vi.mock('./roomSessionLoader.ts', () => ({ loadRoomSession: vi.fn(() => Promise.resolve({})) }));

/** fetch replaced by a counter of the room lookups asked, each answered 'the room exists' */
function countLookups(): string[] {
  const paths: string[] = [];
  vi.stubGlobal('fetch', async (path: string) => {
    paths.push(path);
    return new Response(JSON.stringify({ workspaceId: 'w1', name: 'Team', isPasswordProtected: false }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return paths;
}

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
    key: (i) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

describe('the room lookup started with the app (pages/roomLookup.ts)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is asked once, and the room page takes its answer instead of asking again', async () => {
    const paths = countLookups();
    startRoomLookup('Team', '');
    expect(paths).toHaveLength(1);
    const r = await lookupRoom('Team', {});
    expect(r.ok && r.data.workspaceId).toBe('w1');
    expect(paths).toHaveLength(1);
    // used once: a later resolve (a retry) asks again
    await lookupRoom('Team', {});
    expect(paths).toHaveLength(2);
  });

  it('an early answer for another room is not used', async () => {
    const paths = countLookups();
    startRoomLookup('Team', '');
    await lookupRoom('Other', {});
    expect(paths.map((p) => decodeURIComponent(p.split('/').pop()!))).toEqual(['Team', 'Other']);
  });

  it('is not asked with a saved session for that room, nor with the dashboard’s sign-in parameters: the joined room’s code starts downloading instead', () => {
    const paths = countLookups();
    vi.mocked(loadRoomSession).mockClear();
    startRoomLookup('Team', '');
    expect(loadRoomSession).not.toHaveBeenCalled();
    vi.stubGlobal('localStorage', memoryStorage());
    saveAuth({ workspaceId: 'w1', username: 'ann', userToken: 't', roomName: 'team', password: null });
    startRoomLookup('Team', '');
    startRoomLookup('Elsewhere', '?workspaceId=w2&username=ann&token=t');
    expect(paths).toHaveLength(1); // only the first call, before the session was saved
    expect(loadRoomSession).toHaveBeenCalledTimes(2);
  });
});
