/**
 * Presence under the room key (docs/crypto.md): the gateway seals the usernames it hands to the presence service,
 * so the presence store (Redis, or memory when embedded) holds only sealed names: connection entries, typing
 * details, and the signals built from them. The gateway opens what comes back (online lists, signals from the
 * presence bus) before anything reaches a client. The presence service itself never needs a room key.
 */
import { DomainError, type OnlineUser, type PresenceApi, type PresenceSignal } from '@ephemera/proto';
import { isSealed, type RoomKey, type RoomKeyring } from '@ephemera/platform';

const aad = (userId: string) => `presence:${userId}:username`;

export class SealedPresence implements PresenceApi {
  constructor(private readonly inner: PresenceApi, private readonly keyring: RoomKeyring) {}

  async connect(input: Parameters<PresenceApi['connect']>[0]) {
    const key = await this.key(input.workspaceId);
    const answer = await this.inner.connect({ ...input, user: { ...input.user, username: key.seal(input.user.username, aad(input.user.id)) } });
    return { ...answer, online: answer.online.map((u) => openUser(key, u)) };
  }

  disconnect(input: Parameters<PresenceApi['disconnect']>[0]) { return this.inner.disconnect(input); }

  async online(workspaceId: string): Promise<OnlineUser[]> {
    const online = await this.inner.online(workspaceId);
    if (online.length === 0) return online;
    const key = await this.key(workspaceId);
    return online.map((u) => openUser(key, u));
  }

  heartbeat(input: Parameters<PresenceApi['heartbeat']>[0]) { return this.inner.heartbeat(input); }

  setStatus(input: Parameters<PresenceApi['setStatus']>[0]) { return this.inner.setStatus(input); }

  async typing(input: Parameters<PresenceApi['typing']>[0]) {
    const key = await this.key(input.workspaceId);
    await this.inner.typing({ ...input, username: key.seal(input.username, aad(input.userId)) });
  }

  /** A signal from the presence bus with its name opened; null when the room's key is gone (the room with it). */
  async openSignal(signal: PresenceSignal): Promise<PresenceSignal | null> {
    if (signal.kind === 'status') return signal;
    const key = await this.keyring.key(signal.workspaceId);
    if (!key) return null;
    switch (signal.kind) {
      case 'joined': return { ...signal, user: openUser(key, signal.user) };
      case 'left': return { ...signal, username: openName(key, signal.userId, signal.username) };
      case 'typing': return { ...signal, username: openName(key, signal.userId, signal.username) };
    }
  }

  private async key(workspaceId: string): Promise<RoomKey> {
    const key = await this.keyring.key(workspaceId);
    if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
    return key;
  }
}

/** Entries written before names were sealed (they expire within a minute) are passed on as they are. */
const openName = (key: RoomKey, userId: string, name: string) => (isSealed(name) ? key.open(name, aad(userId)) : name);
const openUser = (key: RoomKey, user: OnlineUser): OnlineUser => ({ ...user, username: openName(key, user.id, user.username) });
