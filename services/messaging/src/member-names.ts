/**
 * Whom a message mentions (docs/product/messages.md M26, M27): the members' usernames, kept sealed under the room key
 * beside their membership (docs/crypto.md), opened when a send or an edit holds an `@`, and matched by proto's
 * mentionedUsernames, the browser's own rule. The ids go into the message's event and its row (projection.ts), and
 * the channel summaries count the unread messages that mention the reader (read-positions.ts).
 */
import { mentionedUsernames, type AnyEventEnvelope } from '@ephemera/proto';
import type { Pool, PoolClient, RoomKey } from '@ephemera/platform';
import { sealedMemberNames, setSealedMemberName } from './rooms-repository.ts';

/** A room's members by username: lower-cased names to member ids (names are unique in a room; ids to be safe). */
export type MemberNames = Map<string, string[]>;

const usernameAad = (workspaceId: string, userId: string) => `member:${workspaceId}:${userId}:username`;

/** A member's username as messaging.members holds it (sealed_username), opened. */
export function openMemberName(key: RoomKey, workspaceId: string, userId: string, sealed: string): string {
  return key.open(sealed, usernameAad(workspaceId, userId));
}

/** member.joined and member.profile-updated: the member's current name, sealed (a member not projected: no row). */
export async function projectMemberName(db: PoolClient, key: RoomKey | null, event: AnyEventEnvelope): Promise<void> {
  if (!key || (event.type !== 'member.joined' && event.type !== 'member.profile-updated')) return;
  const { workspaceId, userId, username } = event.payload;
  await setSealedMemberName(db, workspaceId, userId, key.seal(username, usernameAad(workspaceId, userId)));
}

/**
 * Names opened before, per room key, member and sealed value: a big room's send opens only what changed since (1,000 names
 * take about 6 ms to open, against well under 1 ms to match a message). It goes with the key object (the keyring
 * drops it when the room ends) and is rebuilt from the current rows each time, so renamed or departed members'
 * old values do not pile up.
 */
const opened = new WeakMap<RoomKey, Map<string, string>>();

/** The room's members by name, opened only when one of the texts could mention someone. */
export async function memberNames(
  pool: Pool,
  key: RoomKey,
  workspaceId: string,
  texts: readonly string[],
): Promise<MemberNames> {
  const names: MemberNames = new Map();
  if (!texts.some((t) => t.includes('@'))) return names;
  const rows = await sealedMemberNames(pool, workspaceId);
  const before = opened.get(key);
  const now = new Map<string, string>();
  for (const r of rows) {
    const held = `${r.user_id}\u0000${r.sealed_username}`; // the member too: a value is bound to its member (AAD)
    const name =
      before?.get(held) ?? openMemberName(key, workspaceId, r.user_id, r.sealed_username).toLocaleLowerCase();
    now.set(held, name);
    names.set(name, [...(names.get(name) ?? []), r.user_id]);
  }
  opened.set(key, now);
  return names;
}

/** The ids of the members a text message mentions (none for a file message: its text is a caption or file name). */
export function mentionedIds(type: string, content: string, names: MemberNames): string[] {
  if (type !== 'text' || names.size === 0) return [];
  return mentionedUsernames(content, [...names.keys()]).flatMap((name) => names.get(name.toLocaleLowerCase()) ?? []);
}
