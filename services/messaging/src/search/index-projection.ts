/**
 * The search index projection: message events -> messaging_search.entries (tokens only, never text). It runs
 * after projectForMessaging in the same transaction (composeProjectors), so a send batch stays one transaction
 * and a replay rebuilds the index like the rest of the read model.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import { searchTokens } from './tokens.ts';
import type { RoomKeyOf } from './keys.ts';

export function searchIndexProjector(keyOf: RoomKeyOf) {
  return async (db: PoolClient, event: AnyEventEnvelope): Promise<void> => {
    switch (event.type) {
      case 'message.sent': {
        const m = event.payload.message;
        if (m.type === 'system') return;
        const tokens = searchTokens(keyOf(m.workspaceId), m.content);
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
        await db.query('UPDATE messaging_search.entries SET tokens = $2::bigint[] WHERE message_id = $1',
          [p.messageId, searchTokens(keyOf(p.workspaceId), p.content).map(String)]);
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
