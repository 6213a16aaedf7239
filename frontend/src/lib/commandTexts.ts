/**
 * The room's own English texts for a step that failed or succeeded (docs/product/rooms.md, messages.md): what the
 * room commands (adminCommands.ts, conversationCommands.ts, chatCommands.ts, messageSender.ts, session.ts,
 * sessionEvents.ts) answer. They live here, apart from the commands, so i18n/roomTexts.ts (and through it
 * i18n/errorText.ts, which the account pages use too) can name them without bringing the room's session code along.
 */

/** reasons of a failed command when the server never answered it (or answered without one) */
export const MSG_NOT_CONNECTED = 'Not connected';
export const MSG_TIMED_OUT = 'Request timed out';
export const MSG_UNKNOWN_ERROR = 'Unknown error';

// the room's administration (adminCommands.ts)
export const MSG_RENAME_WORKSPACE_FAILED = 'Failed to rename workspace';
export const kickFailed = (reason: string) => `Failed to kick user: ${reason}`;
export const passwordFailed = (reason: string) => `Failed to set/remove password: ${reason}`;
export const maxUsersFailed = (reason: string) => `Failed to update max users: ${reason}`;
export const MSG_EXTEND_FAILED = 'Failed to extend room. Please try again.';
export const MSG_DELETE_ROOM_FAILED = 'Failed to delete chat room';
export const MSG_THEME_FAILED = 'Failed to change the room theme';
export const MSG_ROLE_FAILED = "Failed to change the member's role";
/** What the owner who deleted the room is told (docs/product/rooms.md R27); the other members get ROOM_ENDED_TEXT. */
export const MSG_ROOM_DELETED_BY_ME = 'Chat room deleted successfully!';

// the sidebar's commands (conversationCommands.ts)
export const MSG_DELETE_DM_TIMEOUT = 'Delete DM request timed out';
export const deleteDmFailed = (reason: string) => `Failed to delete DM conversation: ${reason}`;
export const MSG_DELETE_CHANNEL_FAILED = 'Failed to delete channel';
export const MSG_RENAME_CHANNEL_FAILED = 'Failed to rename channel';
export const MSG_UPDATE_MEMBERS_FAILED = 'Failed to update channel members';
export const MSG_PROFILE_FAILED = 'Failed to update profile';
export const MSG_START_DM_FAILED = 'Failed to start conversation';
export const MSG_SEARCH_FAILED = 'Search failed';
export const MSG_CREATE_CHANNEL_FAILED = 'Failed to create channel';

// the chat (chatCommands.ts, messageSender.ts)
export const MSG_DELETE_FAILED = 'Failed to delete message';
export const MSG_EDIT_FAILED = 'Failed to edit message';
export const MSG_REACTION_FAILED = 'Failed to add reaction';
export const MSG_SEND_FAILED = 'Message could not be sent';

// joining and leaving (session.ts, sessionEvents.ts)
export const MSG_JOIN_TIMEOUT = 'Connection timed out. Please check if the server is running and try again.';
export const MSG_CONNECT_FAILED = 'Failed to connect to server. Please check your connection and try again.';
export const MSG_REMOVED = 'You have been removed from this chat room.';
