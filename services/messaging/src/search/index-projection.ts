/**
 * The search index projection: message events -> messaging_search.entries (tokens only, never text). It runs
 * after messaging's own projector in the same transaction (composeProjectors), so a send batch stays one transaction
 * and a replay rebuilds the index like the rest of the read model. Tokens are keyed by the room's own key: a room
 * whose key was destroyed is gone, and nothing of it is indexed again.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient, RoomKeyring } from '@ephemera/platform';
import { searchTokens } from './tokens.ts';

export function searchIndexProjector(keyring: RoomKeyring) {
  return async (db: PoolClient, event: AnyEventEnvelope): Promise<void> => {
    switch (event.type) {
      case 'message.sent': {
        const m = event.payload.message;
        if (m.type === 'system') return;
        const key = await keyring.key(m.workspaceId);
        if (!key) return;
        const tokens = searchTokens(key, m.content);
        await db.query(
          `INSERT INTO messaging_search.entries (message_id, workspace_id, channel_id, seq, tokens)
           SELECT $1, $2, $3, $4, $5::bigint[]
           WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces WHERE id = $2)
           ON CONFLICT (message_id) DO NOTHING`,
          [m.id, m.workspaceId, m.channelId, m.seq, tokens.map(String)]);
        return;
      }
      case 'message.edited': {
        const p = event.payload;
        const key = await keyring.key(p.workspaceId);
        if (!key) return;
        await db.query('UPDATE messaging_search.entries SET tokens = $2::bigint[] WHERE message_id = $1',
          [p.messageId, searchTokens(key, p.content).map(String)]);
        return;
      }
      case 'message.deleted':
        await db.query('DELETE FROM messaging_search.entries WHERE message_id = $1', [event.payload.messageId]);
        return;
      case 'channel.deleted':
        await db.query('DELETE FROM messaging_search.entries WHERE channel_id = $1', [event.payload.channelId]);
        return;
      case 'workspace.expired':
      case 'workspace.deleted':
        await db.query('DELETE FROM messaging_search.entries WHERE workspace_id = $1', [event.payload.workspaceId]);
        return;
      default:
        return;
    }
  };
}
