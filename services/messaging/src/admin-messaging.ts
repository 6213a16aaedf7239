/**
 * The superadmin's moderation viewer (AdminMessagingApi; docs/product/admin.md ADM7): a room's latest messages across
 * all its channels
 * (topics, private topics and DMs), opened with the room's key, each with its channel's name and type. A message
 * whose sealed body does not open (tampered, or sealed under another key) is still listed, marked with its
 * decryptError and no content: the viewer shows Decrypt Error rather than hiding it. Deleted messages are left out,
 * as in history. The newest `limit` messages are answered oldest first, as a chat reads.
 * Input is parsed here: in distributed mode it arrives over internal-rpc as plain JSON.
 */
import { z } from 'zod';
import { ADMIN_LIMITS, IdSchema, type AdminMessagingApi, type Message, type ModerationMessage } from '@ephemera/proto';
import { parseOrThrow, type Pool, type RoomKey, type RoomKeyring } from '@ephemera/platform';
import type { MessagingService } from './messaging-service.ts';
import { openMessage, servingKey } from './sealed-messages.ts';
import { openChannelName } from './channel-names.ts';
import { latestLiveMessagesWithChannels, type ModerationRow } from './messages-repository.ts';

const Input = z.object({ workspaceId: IdSchema, limit: z.number().int().min(1).max(ADMIN_LIMITS.moderationMessages) });

export class AdminMessaging implements AdminMessagingApi {
  constructor(
    private readonly messaging: MessagingService,
    private readonly pool: Pool,
    private readonly keyring: RoomKeyring,
  ) {}

  async moderationMessages(input: { workspaceId: string; limit: number }): Promise<ModerationMessage[]> {
    const { workspaceId, limit } = parseOrThrow(Input, input);
    await this.messaging.settled(workspaceId); // a message acknowledged before the opening is shown
    const key = await servingKey(this.keyring, workspaceId); // WORKSPACE_NOT_FOUND once the room is gone
    const rows = await latestLiveMessagesWithChannels(this.pool, workspaceId, limit);
    return rows.reverse().map((row) => moderationView(key, row));
  }
}

/** One stored row as the viewer shows it; never throws (a row that does not open is a Decrypt Error). */
export function moderationView(key: RoomKey, row: ModerationRow): ModerationMessage {
  const channel = {
    channelName: openChannelName(key, row.channel_id, row.sealed_name),
    channelType:
      row.channel_type === 'dm' ? ('dm' as const) : row.is_private ? ('private' as const) : ('topic' as const),
  };
  let message: Message;
  try {
    message = openMessage(key, row);
  } catch (err) {
    return {
      id: row.id,
      authorName: 'Unknown',
      username: row.author_id,
      ...channel,
      isDecrypted: false,
      decryptError: `The message does not open under the room's key (${(err as Error).message || 'authentication failed'})`,
      timestamp: row.created_at.toISOString(),
      content: '',
      type: 'text',
    };
  }
  return {
    id: message.id,
    authorName: message.authorName,
    username: message.authorName,
    ...channel,
    isDecrypted: true,
    decryptError: null,
    timestamp: message.timestamp,
    content: message.file && !message.content ? message.file.name : message.content,
    type: message.type,
  };
}
