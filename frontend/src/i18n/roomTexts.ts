/**
 * The room's own texts that reach the screen as English strings: what the browser's room commands answer when a step
 * fails (lib/commandTexts.ts, which holds them apart from the session's code), and the room-ended texts the server
 * sends (proto's ROOM_ENDED_TEXT). Each English text is its constant, so English stays exactly what the code says; the
 * key gives it in the active language (errorText reads these after proto's ERRORS; docs/i18n.md).
 */
import { LIMITS, ROOM_ENDED_TEXT } from '@ephemera/proto/client';
import type { MessageId, MessageValues } from './i18n.ts';
import {
  MSG_CONNECT_FAILED,
  MSG_CREATE_CHANNEL_FAILED,
  MSG_DELETE_CHANNEL_FAILED,
  MSG_DELETE_DM_TIMEOUT,
  MSG_DELETE_FAILED,
  MSG_DELETE_ROOM_FAILED,
  MSG_EDIT_FAILED,
  MSG_EXTEND_FAILED,
  MSG_JOIN_TIMEOUT,
  MSG_NOT_CONNECTED,
  MSG_PROFILE_FAILED,
  MSG_REACTION_FAILED,
  MSG_REMOVED,
  MSG_RENAME_CHANNEL_FAILED,
  MSG_RENAME_WORKSPACE_FAILED,
  MSG_ROLE_FAILED,
  MSG_ROOM_DELETED_BY_ME,
  MSG_SEARCH_FAILED,
  MSG_SEND_FAILED,
  MSG_START_DM_FAILED,
  MSG_THEME_FAILED,
  MSG_TIMED_OUT,
  MSG_UNKNOWN_ERROR,
  MSG_UPDATE_MEMBERS_FAILED,
  deleteDmFailed,
  kickFailed,
  maxUsersFailed,
  passwordFailed,
} from '../lib/commandTexts.ts';
import { MSG_PASSWORD_TOO_LONG } from '../lib/roomRules.ts';

/** Whole texts (with the values of their placeholders). */
export const ROOM_TEXTS = new Map<string, MessageId | [MessageId, MessageValues]>([
  [MSG_PASSWORD_TOO_LONG, ['errors.roomPasswordTooLong', { max: String(LIMITS.roomPasswordMax) }]],
  [ROOM_ENDED_TEXT.deleted, 'roomside.ended.deleted'],
  [ROOM_ENDED_TEXT.expired, 'roomside.ended.expired'],
  [MSG_REMOVED, 'roomside.ended.removed'],
  [MSG_ROOM_DELETED_BY_ME, 'roomside.ended.deletedByMe'],
  [MSG_JOIN_TIMEOUT, 'roomside.command.joinTimeout'],
  [MSG_CONNECT_FAILED, 'roomside.command.connectFailed'],
  [MSG_RENAME_WORKSPACE_FAILED, 'roomside.command.renameRoomFailed'],
  [MSG_EXTEND_FAILED, 'roomside.command.extendFailed'],
  [MSG_DELETE_ROOM_FAILED, 'roomside.command.deleteRoomFailed'],
  [MSG_THEME_FAILED, 'roomside.command.themeFailed'],
  [MSG_ROLE_FAILED, 'roomside.command.roleFailed'],
  [MSG_DELETE_DM_TIMEOUT, 'roomside.command.deleteDmTimeout'],
  [MSG_DELETE_CHANNEL_FAILED, 'roomside.command.deleteChannelFailed'],
  [MSG_RENAME_CHANNEL_FAILED, 'roomside.command.renameChannelFailed'],
  [MSG_UPDATE_MEMBERS_FAILED, 'roomside.command.updateMembersFailed'],
  [MSG_PROFILE_FAILED, 'roomside.command.profileFailed'],
  [MSG_START_DM_FAILED, 'roomside.command.startDmFailed'],
  [MSG_SEARCH_FAILED, 'roomside.command.searchFailed'],
  [MSG_CREATE_CHANNEL_FAILED, 'roomside.command.createChannelFailed'],
  [MSG_DELETE_FAILED, 'roomside.command.deleteMessageFailed'],
  [MSG_EDIT_FAILED, 'roomside.command.editMessageFailed'],
  [MSG_REACTION_FAILED, 'roomside.command.reactionFailed'],
  [MSG_SEND_FAILED, 'roomside.command.sendFailed'],
  // the reasons a command names when the server never answered it
  [MSG_NOT_CONNECTED, 'roomside.command.notConnected'],
  [MSG_TIMED_OUT, 'roomside.command.timedOut'],
  [MSG_UNKNOWN_ERROR, 'roomside.command.unknownError'],
]);

/** Texts made of a fixed start and the server's reason ('Failed to kick user: {reason}'). */
export const ROOM_TEXTS_WITH_REASON: [start: string, key: MessageId][] = [
  [kickFailed(''), 'roomside.command.kickFailed'],
  [passwordFailed(''), 'roomside.command.passwordFailed'],
  [maxUsersFailed(''), 'roomside.command.maxUsersFailed'],
  [deleteDmFailed(''), 'roomside.command.deleteDmFailed'],
];
