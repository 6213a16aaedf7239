/**
 * The messaging service's events (topic messaging): messages, their edits, deletions and reactions, read positions,
 * files. Apart from events.ts (the envelope, the event table, the topics) so that each service's events read as one
 * page.
 */
import { z } from 'zod';
import { MessageSchema } from './models.ts';

// ---- messaging service events (topic messaging) ----
/** Who receives a message: everyone in the room (public topic channel) or the listed users (private channel, DM). */
export const AudienceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('workspace') }),
  z.object({ kind: z.literal('users'), userIds: z.array(z.string()) }),
]);
export type Audience = z.infer<typeof AudienceSchema>;
/**
 * bodyGone: delivered after the message was deleted, its key destroyed (docs/crypto.md "Messages"): the message comes
 * without its body (no text, author name, quote, preview or file) and is stored as deleted.
 */
export const MessageSentSchema = z.object({
  message: MessageSchema,
  audience: AudienceSchema,
  bodyGone: z.boolean().optional(),
  /**
   * The members the text mentions (mentions.ts mentionedUsernames against the room's members when sent), for their
   * unread mention counts; absent: none (so are events recorded before mentions were counted).
   */
  mentionedUserIds: z.array(z.string()).optional(),
});
/**
 * The events below concern one message (or one member's read position): their aggregate is the message (or
 * `{workspaceId}:{userId}:read`), their sequence that aggregate's version, and their partition key the workspace id
 * (partitionKeyOf) so a room's events stay in one ordered stream. Message seq numbers stay gap-free (P1).
 */
export const MessageEditedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  messageId: z.string(),
  content: z.string(),
  editedAt: z.string(),
  audience: AudienceSchema,
  /** as message.sent's: the message was deleted since, and its new text is gone with its key */
  bodyGone: z.boolean().optional(),
  /** as message.sent's, for the new text: they replace the message's mentions */
  mentionedUserIds: z.array(z.string()).optional(),
});
export const MessageDeletedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  messageId: z.string(),
  audience: AudienceSchema,
});
/** emoji null: the user's reaction was removed. reactions: the whole map after the change. */
export const ReactionChangedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  messageId: z.string(),
  userId: z.string(),
  emoji: z.string().nullable(),
  reactions: z.record(z.string(), z.array(z.string())),
  audience: AudienceSchema,
});
export const ReadMarkedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  userId: z.string(),
  seq: z.number().int(),
  audience: AudienceSchema,
});

/**
 * A file was uploaded and stored (messaging owns files; aggregate: the file id). The payload is sealed in the log
 * like every room event; `fileKey` is the file's own data key, itself sealed under the room key (docs/crypto.md).
 * channelId null: a profile picture.
 */
export const FileUploadedSchema = z.object({
  workspaceId: z.string(),
  fileId: z.string(),
  channelId: z.string().nullable(),
  uploaderId: z.string(),
  purpose: z.enum(['message', 'voice', 'avatar']),
  kind: z.enum(['image', 'video', 'file', 'voice']),
  name: z.string(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  caption: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  storageKey: z.string(),
  thumbnailKey: z.string().nullable(),
  thumbnailSize: z.number().int().nullable(),
  fileKey: z.string(),
  uploadedAt: z.string(),
  /** the tier's retention (ENTITLEMENTS.fileRetentionMs) from the upload; null = kept as long as the room */
  expiresAt: z.string().nullable(),
});
/** A stored file is gone: past its tier's retention, or its message was deleted (its bytes are deleted too). */
export const FileRemovedSchema = z.object({
  workspaceId: z.string(),
  fileId: z.string(),
  reason: z.enum(['retention', 'message-deleted']),
});
