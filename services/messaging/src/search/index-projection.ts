/**
 * The search index projection: message events -> messaging_search.entries (tokens only, never text). It runs
 * after messaging's own projector in the same transaction (composeProjectors), so a send batch stays one transaction
 * and a replay rebuilds the index like the rest of the read model. Tokens are keyed by the room's own key: a room
 * whose key was destroyed is gone, and nothing of it is indexed again.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import { writingRuns, type PoolClient, type Projector, type RoomKeyring } from '@ephemera/platform';
import { searchTokens } from './tokens.ts';

type MessageSent = Extract<AnyEventEnvelope, { type: 'message.sent' }>;

export function searchIndexProjector(keyring: RoomKeyring): Projector {
  const project: Projector = async (db: PoolClient, event: AnyEventEnvelope): Promise<void> => {
    switch (event.type) {
      case 'message.sent':
        await indexMessages(db, keyring, [event]);
        return;
      case 'message.edited': {
        const p = event.payload;
        const key = await keyring.key(p.workspaceId);
        if (!key || p.bodyGone) return;
        await db.query('UPDATE messaging_search.entries SET tokens = $2::bigint[] WHERE message_id = $1', [
          p.messageId,
          searchTokens(key, p.content).map(String),
        ]);
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
  // A send batch's entries in one statement; everything else one by one, in order.
  return writingRuns('message.sent', project, (db, events) => indexMessages(db, keyring, events));
}

/** One INSERT for any number of messages; each row's tokens travel as an array literal (rows differ in length). */
async function indexMessages(db: PoolClient, keyring: RoomKeyring, events: MessageSent[]): Promise<void> {
  const rows: { id: string; workspaceId: string; channelId: string; seq: number; tokens: string }[] = [];
  for (const event of events) {
    const m = event.payload.message;
    if (m.type === 'system' || event.payload.bodyGone) continue; // a deleted message is not indexed
    const key = await keyring.key(m.workspaceId);
    if (key)
      rows.push({
        id: m.id,
        workspaceId: m.workspaceId,
        channelId: m.channelId,
        seq: m.seq,
        tokens: `{${searchTokens(key, m.content).join(',')}}`,
      });
  }
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO messaging_search.entries (message_id, workspace_id, channel_id, seq, tokens)
     SELECT r.message_id, r.workspace_id, r.channel_id, r.seq, r.tokens::bigint[]
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[]) AS r(message_id, workspace_id, channel_id, seq, tokens)
     WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces e WHERE e.id = r.workspace_id)
       AND NOT EXISTS (SELECT 1 FROM messaging.deleted_channels d WHERE d.id = r.channel_id)
     ON CONFLICT (message_id) DO NOTHING`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.workspaceId),
      rows.map((r) => r.channelId),
      rows.map((r) => r.seq),
      rows.map((r) => r.tokens),
    ],
  );
}
