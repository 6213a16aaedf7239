/**
 * Applies room events to the room service's read model (schema room). Pure translation, no decisions. Members'
 * usernames and profile pictures, and channel names, are sealed under the room's key on the way in (member-crypto.ts); a room whose key
 * is destroyed is gone, and no member of it is stored again.
 */
import type { Channel } from '@ephemera/proto';
import type { Projector, PoolClient, RoomKeyring } from '@ephemera/platform';
import { dmKeyOf } from './rules.ts';
import { roomNameKey } from './name-keys.ts';
import {
  CHANNEL_NAME_PURPOSE,
  channelNameHash,
  sealChannelName,
  sealPicture,
  sealThemeAuthor,
  sealUsername,
  usernameHash,
  USERNAME_PURPOSE,
} from './member-crypto.ts';

export const roomProjector =
  (keyring: RoomKeyring): Projector =>
  async (db, event) => {
    switch (event.type) {
      case 'workspace.created': {
        const p = event.payload;
        await db.query(
          `INSERT INTO room.workspaces (id, name, name_key, name_skeleton, tier, created_at, expires_at, password_hash, created_by, last_seq)
         VALUES ($1, $2, $3, $10, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
          [
            p.workspaceId,
            p.name,
            p.nameKey,
            p.tier,
            p.createdAt,
            p.expiresAt,
            p.passwordHash,
            p.createdBy,
            event.sequence,
            roomNameKey(p.name),
          ],
        );
        return;
      }
      case 'member.joined': {
        const p = event.payload;
        const key = await keyring.key(p.workspaceId);
        if (!key) return;
        await db.query(
          `INSERT INTO room.members (workspace_id, user_id, username, username_hash, username_hash_purpose, is_admin, token_hash, joined_at)
         VALUES ($1, $2, $3, $4, $8, $5, $6, $7) ON CONFLICT DO NOTHING`,
          [
            p.workspaceId,
            p.userId,
            sealUsername(key, p.userId, p.username),
            usernameHash(key, p.username),
            p.isAdmin,
            p.tokenHash,
            p.joinedAt,
            USERNAME_PURPOSE,
          ],
        );
        break;
      }
      case 'channel.created':
        await insertChannel(db, keyring, event.payload.channel);
        break;
      case 'channel.renamed': {
        const c = event.payload.channel;
        const key = await keyring.key(c.workspaceId);
        if (!key) return;
        await db.query(
          'UPDATE room.channels SET name = $2, name_key = $3, name_key_purpose = $4, name_sealed = true WHERE id = $1',
          [c.id, sealChannelName(key, c.id, c.name), channelNameHash(key, c.name), CHANNEL_NAME_PURPOSE],
        );
        break;
      }
      case 'channel.members-changed': {
        const c = event.payload.channel;
        await db.query('UPDATE room.channels SET member_ids = $2 WHERE id = $1', [c.id, c.memberIds]);
        break;
      }
      case 'channel.deleted':
        // hidden_dms rows go with the channel (ON DELETE CASCADE)
        await db.query('DELETE FROM room.channels WHERE id = $1 AND workspace_id = $2', [
          event.payload.channelId,
          event.payload.workspaceId,
        ]);
        break;
      case 'dm.hidden': {
        const p = event.payload;
        // The time of the hide is the event's: a replay writes the same row.
        await db.query(
          `INSERT INTO room.hidden_dms (channel_id, user_id, hidden_at)
         SELECT id, $2, $3 FROM room.channels WHERE id = $1 ON CONFLICT (channel_id, user_id) DO UPDATE SET hidden_at = EXCLUDED.hidden_at`,
          [p.channelId, p.userId, event.occurredAt],
        );
        break;
      }
      case 'dm.reopened':
        await db.query('DELETE FROM room.hidden_dms WHERE channel_id = $1 AND user_id = $2', [
          event.payload.channelId,
          event.payload.userId,
        ]);
        break;
      case 'member.profile-updated': {
        const p = event.payload;
        const key = await keyring.key(p.workspaceId);
        if (!key) return;
        await db.query(
          'UPDATE room.members SET username = $3, username_hash = $4, profile_picture = $5, username_hash_purpose = $6 WHERE workspace_id = $1 AND user_id = $2',
          [
            p.workspaceId,
            p.userId,
            sealUsername(key, p.userId, p.username),
            usernameHash(key, p.username),
            sealPicture(key, p.userId, p.profilePicture),
            USERNAME_PURPOSE,
          ],
        );
        break;
      }
      case 'member.left': {
        const p = event.payload;
        // The row (and with it the token hash and the username) goes; the departure stays so the role reads 'left'.
        await db.query('DELETE FROM room.members WHERE workspace_id = $1 AND user_id = $2', [p.workspaceId, p.userId]);
        const key = await keyring.key(p.workspaceId);
        if (!key) return;
        await db.query(
          `INSERT INTO room.departed_members (workspace_id, user_id, username, reason, departed_at)
         SELECT id, $2, $3, 'left', $4 FROM room.workspaces WHERE id = $1 ON CONFLICT (workspace_id, user_id) DO NOTHING`,
          [p.workspaceId, p.userId, sealUsername(key, p.userId, p.username), p.leftAt],
        );
        break;
      }
      case 'workspace.expired':
      case 'workspace.deleted':
        // Deleting the workspace cascades to members, channels, departures and hidden DMs: nothing is left behind,
        // and the name is free again.
        await db.query('DELETE FROM room.workspaces WHERE id = $1', [event.payload.workspaceId]);
        return;
      case 'workspace.renamed':
        await db.query('UPDATE room.workspaces SET name = $2, name_key = $3, name_skeleton = $4 WHERE id = $1', [
          event.payload.workspaceId,
          event.payload.name,
          event.payload.nameKey,
          roomNameKey(event.payload.name),
        ]);
        break;
      case 'workspace.password-changed':
        await db.query('UPDATE room.workspaces SET password_hash = $2 WHERE id = $1', [
          event.payload.workspaceId,
          event.payload.passwordHash,
        ]);
        break;
      case 'workspace.max-users-changed':
        await db.query('UPDATE room.workspaces SET custom_max_users = $2 WHERE id = $1', [
          event.payload.workspaceId,
          event.payload.customMaxUsers,
        ]);
        break;
      case 'workspace.extended':
        await db.query('UPDATE room.workspaces SET expires_at = $2 WHERE id = $1', [
          event.payload.workspaceId,
          event.payload.expiresAt,
        ]);
        break;
      case 'workspace.tier-changed':
        await db.query('UPDATE room.workspaces SET tier = $2, expires_at = $3 WHERE id = $1', [
          event.payload.workspaceId,
          event.payload.tier,
          event.payload.expiresAt,
        ]);
        break;
      case 'workspace.theme-changed': {
        const { workspaceId, themeId, customTheme, changedBy, changedByName, logoSrc } = event.payload;
        const key = await keyring.key(workspaceId);
        if (!key) return;
        const theme = sealThemeAuthor(key, {
          themeId,
          customTheme,
          changedBy,
          changedByName,
          logoSrc: logoSrc ?? null,
        });
        await db.query('UPDATE room.workspaces SET theme = $2 WHERE id = $1', [workspaceId, JSON.stringify(theme)]);
        break;
      }
      // Accounts (ownership.ts): the owner member's token is replaced by the claim's / the new owner token's.
      case 'workspace.claimed':
        await db.query('UPDATE room.workspaces SET owner_account_id = $2 WHERE id = $1', [
          event.payload.workspaceId,
          event.payload.accountId,
        ]);
        await db.query('UPDATE room.members SET token_hash = $3 WHERE workspace_id = $1 AND user_id = $2', [
          event.payload.workspaceId,
          event.payload.userId,
          event.payload.tokenHash,
        ]);
        break;
      case 'workspace.owner-token-issued':
        await db.query('UPDATE room.members SET token_hash = $3 WHERE workspace_id = $1 AND user_id = $2', [
          event.payload.workspaceId,
          event.payload.userId,
          event.payload.tokenHash,
        ]);
        break;
      case 'member.role-changed':
        await db.query('UPDATE room.members SET is_admin = $3 WHERE workspace_id = $1 AND user_id = $2', [
          event.payload.workspaceId,
          event.payload.userId,
          event.payload.isAdmin,
        ]);
        break;
      case 'member.kicked': {
        const p = event.payload;
        const key = await keyring.key(p.workspaceId);
        if (!key) return;
        // Like member.left, but the departure keeps the token's hash: joining with it answers KICKED.
        await db.query(
          `INSERT INTO room.departed_members (workspace_id, user_id, username, reason, departed_at, token_hash)
         SELECT w.id, $2, $3, 'kicked', $4, m.token_hash FROM room.workspaces w
         LEFT JOIN room.members m ON m.workspace_id = w.id AND m.user_id = $2
         WHERE w.id = $1 ON CONFLICT (workspace_id, user_id) DO NOTHING`,
          [p.workspaceId, p.userId, sealUsername(key, p.userId, p.username), p.kickedAt],
        );
        await db.query('DELETE FROM room.members WHERE workspace_id = $1 AND user_id = $2', [p.workspaceId, p.userId]);
        break;
      }
      default:
        return;
    }
    await db.query('UPDATE room.workspaces SET last_seq = GREATEST(last_seq, $2) WHERE id = $1', [
      event.aggregateId,
      event.sequence,
    ]);
  };

async function insertChannel(db: PoolClient, keyring: RoomKeyring, c: Channel): Promise<void> {
  const key = await keyring.key(c.workspaceId);
  if (!key) return; // the room is gone: nothing of it is stored again
  await db.query(
    `INSERT INTO room.channels (id, workspace_id, name, name_key, type, is_private, member_ids, created_by, created_at, dm_key, name_sealed, name_key_purpose)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, true, $11) ON CONFLICT DO NOTHING`,
    [
      c.id,
      c.workspaceId,
      sealChannelName(key, c.id, c.name),
      channelNameHash(key, c.name),
      c.type,
      c.isPrivate,
      c.memberIds,
      c.createdBy,
      c.createdAt,
      c.type === 'dm' ? dmKeyOf(c.memberIds) : null,
      CHANNEL_NAME_PURPOSE,
    ],
  );
}
