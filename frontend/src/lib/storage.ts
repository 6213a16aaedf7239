/**
 * Local browser storage of the room session (docs/product/rooms.md R37):
 * the auth record, lastWorkspaceId and lastChannel_{workspaceId}.
 */

export interface AuthRecord {
  workspaceId: string;
  userToken: string;
  username: string;
  roomName: string;
  password: string | null;
}

export const AUTH_KEY = 'ephemera.auth';
export const LAST_WORKSPACE_KEY = 'lastWorkspaceId';
export const lastChannelKey = (workspaceId: string) => `lastChannel_${workspaceId}`;

export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function defaultStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled by the browser
  }
}

function get(key: string, store = defaultStore()): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
function set(key: string, value: string, store = defaultStore()): void {
  try {
    store?.setItem(key, value);
  } catch {
    /* quota or disabled: the session still works */
  }
}
function remove(key: string, store = defaultStore()): void {
  try {
    store?.removeItem(key);
  } catch {
    /* ignore */
  }
}

const isNonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

export function readAuth(store = defaultStore()): AuthRecord | null {
  const raw = get(AUTH_KEY, store);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<AuthRecord>;
    if (!isNonEmpty(v.workspaceId) || !isNonEmpty(v.userToken) || !isNonEmpty(v.username) || !isNonEmpty(v.roomName))
      return null;
    return {
      workspaceId: v.workspaceId,
      userToken: v.userToken,
      username: v.username,
      roomName: v.roomName,
      password: isNonEmpty(v.password) ? v.password : null,
    };
  } catch {
    return null;
  }
}

export function saveAuth(record: AuthRecord, store = defaultStore()): void {
  set(AUTH_KEY, JSON.stringify(record), store);
  set(LAST_WORKSPACE_KEY, record.workspaceId, store);
}

export function getLastWorkspaceId(store = defaultStore()): string | null {
  return get(LAST_WORKSPACE_KEY, store);
}

export function getLastChannel(workspaceId: string, store = defaultStore()): string | null {
  return get(lastChannelKey(workspaceId), store);
}

export function setLastChannel(workspaceId: string, channelId: string | null, store = defaultStore()): void {
  if (channelId) set(lastChannelKey(workspaceId), channelId, store);
  else remove(lastChannelKey(workspaceId), store);
}

/** Clear the stored auth record, lastWorkspaceId and the last-channel entries of the rooms involved. */
export function clearRoomData(workspaceId: string | null = null, store = defaultStore()): void {
  const ids = new Set<string>();
  if (workspaceId) ids.add(workspaceId);
  const auth = readAuth(store);
  if (auth) ids.add(auth.workspaceId);
  const last = get(LAST_WORKSPACE_KEY, store);
  if (last) ids.add(last);
  for (const id of ids) remove(lastChannelKey(id), store);
  remove(AUTH_KEY, store);
  remove(LAST_WORKSPACE_KEY, store);
}

/** Room names are unique case-insensitively. */
export function sameRoomName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
