/**
 * Texts the browser shares with the server (proto/: the server's refusals carry the same English words): shown in
 * the active language when the browser knows them, as they came when it does not (docs/i18n.md).
 */
import { CONTACT_LIMITS, CONTACT_TEXT } from '@ephemera/proto/client';
import {
  MSG_CHECK_TIMED_OUT,
  MSG_CHECK_UNAVAILABLE,
  MSG_USERNAME_CHECK_FAILED,
  MSG_USERNAME_NETWORK,
} from '../lib/availability.ts';
import { t, type MessageId, type MessageValues } from './i18n.ts';

/**
 * The server's words this module translates, as it writes them: proto's ERRORS table is not imported here, because
 * the landing page's initial JavaScript would then carry all of it (i18n.test.ts checks each against ERRORS).
 */
export const SERVER_TEXT = {
  googleNotConfigured: 'Google sign-in is not configured',
  roomNameAvailable: 'Room name is available',
  roomNameTaken: 'Room name is already taken',
  roomNameReserved: 'This name is reserved',
  roomNameInvalid: 'Use letters, numbers, hyphens and underscores only',
  usernameAvailable: 'Username is available',
  usernameTaken: 'Username is already taken',
  // the sign-in notices billing writes (its requestCode and recoverUsername answers)
  signInCodeSentTo: 'We sent a sign-in code to ',
  usernameSent: 'If an account uses this address, we sent its username there.',
} as const;

/** the shared text, its key, and the values its placeholders take (limits as written, without grouping) */
const SHARED = new Map<string, [MessageId, MessageValues?]>([
  [CONTACT_TEXT.nameRequired, ['public.contact.error.nameRequired']],
  [CONTACT_TEXT.nameTooLong, ['public.contact.error.nameTooLong', { max: String(CONTACT_LIMITS.nameMax) }]],
  [CONTACT_TEXT.emailRequired, ['public.contact.error.emailRequired']],
  [CONTACT_TEXT.emailInvalid, ['public.contact.error.emailInvalid']],
  [CONTACT_TEXT.categoryRequired, ['public.contact.error.categoryRequired']],
  [CONTACT_TEXT.messageRequired, ['public.contact.error.messageRequired']],
  [CONTACT_TEXT.messageTooLong, ['public.contact.error.messageTooLong', { max: String(CONTACT_LIMITS.messageMax) }]],
  [CONTACT_TEXT.unsupportedCharacters, ['public.contact.error.unsupportedCharacters']],
  [CONTACT_TEXT.failed, ['public.contact.error.failed']],
  [SERVER_TEXT.googleNotConfigured, ['public.login.googleNotConfigured']],
  // the name checks' answers (the room service's words for a free name, proto's for the others) and their fallbacks
  [SERVER_TEXT.roomNameAvailable, ['common.availability.roomAvailable']],
  ['Available!', ['common.availability.roomAvailable']],
  [SERVER_TEXT.roomNameTaken, ['common.availability.roomTaken']],
  [SERVER_TEXT.roomNameReserved, ['common.availability.roomReserved']],
  [SERVER_TEXT.roomNameInvalid, ['common.availability.roomInvalid']],
  [MSG_CHECK_TIMED_OUT, ['common.availability.timedOut']],
  [MSG_CHECK_UNAVAILABLE, ['common.availability.unavailable']],
  [SERVER_TEXT.usernameAvailable, ['common.availability.usernameAvailable']],
  [SERVER_TEXT.usernameTaken, ['common.availability.usernameTaken']],
  [MSG_USERNAME_CHECK_FAILED, ['common.availability.usernameCheckFailed']],
  [MSG_USERNAME_NETWORK, ['common.availability.usernameNetwork']],
  [SERVER_TEXT.usernameSent, ['public.login.recoverySent']],
]);

/** A shared text in the active language (its area's catalog must be loaded), or the text itself when unknown. */
export function translateShared(text: string): string {
  const known = SHARED.get(text);
  if (known) return t(...known);
  if (text.startsWith(SERVER_TEXT.signInCodeSentTo)) {
    return t('common.emailCode.sent', { email: text.slice(SERVER_TEXT.signInCodeSentTo.length) });
  }
  return text;
}
