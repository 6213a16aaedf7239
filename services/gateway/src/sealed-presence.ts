/**
 * Presence under the room key (docs/crypto.md): the gateway seals the usernames it hands to the presence service,
 * so the presence store (Redis, or memory when embedded) holds only sealed names: connection entries, typing
 * details, and the signals built from them. The gateway opens what comes back (online lists, signals from the
 * presence bus) before anything reaches a client. The presence service itself never needs a room key.
 */
import { DomainError, type OnlineUser, type PresenceApi, type PresenceSignal } from '@ephemera/proto';
import { isSealed, type RoomKey, type RoomKeyring } from '@ephemera/platform';

const aad = (userId: string) => `presence:${userId}:username`;

/**
 * Names this gateway sealed or opened, by the room key: every join's online list repeats the room's sealed names
 * (one per user), and every connect and typing signal seals its user's name again. Opening and sealing (a cipher
 * object each) were most of this module's cost, about 6 % of a gateway's CPU in a join burst. An entry is keyed by
 * the user id and the sealed text together, so a sealed name under another user's id still goes to `open` (the
 * associated data binds the id) and is refused there. The entries go with the key: a forgotten key (the room deleted
 * or expired) is unreachable, and its names with it.
 */
const names = new WeakMap<RoomKey, { opened: Map<string, string>; sealed: Map<string, string> }>();
const NAMES_PER_ROOM = 10_000;

function namesOf(key: RoomKey) {
  let entry = names.get(key);
  if (!entry) names.set(key, (entry = { opened: new Map(), sealed: new Map() }));
  if (entry.opened.size >= NAMES_PER_ROOM) entry.opened.clear();
  if (entry.sealed.size >= NAMES_PER_ROOM) entry.sealed.clear();
  return entry;
}

/** The map's value for `id`, computed and kept the first time it is asked for. */
function remembered(map: Map<string, string>, id: string, compute: () => string): string {
  let value = map.get(id);
  if (value === undefined) map.set(id, (value = compute()));
  return value;
}

/** `name` sealed for `userId`'s presence entries: the same text for the same name while this process runs. */
function sealName(key: RoomKey, userId: string, name: string): string {
  const entry = namesOf(key);
  return remembered(entry.sealed, `${userId}\n${name}`, () => {
    const sealed = key.seal(name, aad(userId));
    entry.opened.set(`${userId}\n${sealed}`, name); // what this gateway sealed, it need not open
    return sealed;
  });
}

/** Entries written before names were sealed (they expire within a minute) are passed on as they are. */
function openName(key: RoomKey, userId: string, name: string): string {
  if (!isSealed(name)) return name;
  return remembered(namesOf(key).opened, `${userId}\n${name}`, () => key.open(name, aad(userId)));
}

const openUser = (key: RoomKey, user: OnlineUser): OnlineUser => ({
  ...user,
  username: openName(key, user.id, user.username),
});

export class SealedPresence implements PresenceApi {
  constructor(
    private readonly inner: PresenceApi,
    private readonly keyring: RoomKeyring,
  ) {}

  async connect(input: Parameters<PresenceApi['connect']>[0]) {
    const key = await this.key(input.workspaceId);
    const answer = await this.inner.connect({
      ...input,
      user: { ...input.user, username: sealName(key, input.user.id, input.user.username) },
    });
    return { ...answer, online: answer.online.map((u) => openUser(key, u)) };
  }

  disconnect(input: Parameters<PresenceApi['disconnect']>[0]) {
    return this.inner.disconnect(input);
  }

  async online(workspaceId: string): Promise<OnlineUser[]> {
    const online = await this.inner.online(workspaceId);
    if (online.length === 0) return online;
    const key = await this.key(workspaceId);
    return online.map((u) => openUser(key, u));
  }

  async onlinePage(input: Parameters<PresenceApi['onlinePage']>[0]) {
    const page = await this.inner.onlinePage(input);
    if (page.users.length === 0) return page;
    const key = await this.key(input.workspaceId);
    return { ...page, users: page.users.map((u: OnlineUser) => openUser(key, u)) };
  }

  heartbeat(input: Parameters<PresenceApi['heartbeat']>[0]) {
    return this.inner.heartbeat(input);
  }

  setStatus(input: Parameters<PresenceApi['setStatus']>[0]) {
    return this.inner.setStatus(input);
  }

  async typing(input: Parameters<PresenceApi['typing']>[0]) {
    const key = await this.key(input.workspaceId);
    await this.inner.typing({ ...input, username: sealName(key, input.userId, input.username) });
  }

  /** A signal from the presence bus with its name opened; null when the room's key is gone (the room with it). */
  async openSignal(signal: PresenceSignal): Promise<PresenceSignal | null> {
    if (signal.kind === 'status') return signal;
    const key = await this.keyring.key(signal.workspaceId);
    if (!key) return null;
    switch (signal.kind) {
      case 'joined':
        return { ...signal, user: openUser(key, signal.user) };
      case 'left':
        return { ...signal, username: openName(key, signal.userId, signal.username) };
      case 'typing':
        return { ...signal, username: openName(key, signal.userId, signal.username) };
    }
  }

  private async key(workspaceId: string): Promise<RoomKey> {
    const key = await this.keyring.key(workspaceId);
    if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
    return key;
  }
}
