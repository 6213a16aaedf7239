/** The mention rule lives in proto (proto/src/mentions.ts): the server counts mentions by the same function. */
export { findMentions, mentionsMember, type MentionRange } from '@ephemera/proto/client';
