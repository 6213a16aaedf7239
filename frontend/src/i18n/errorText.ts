/**
 * The server's refusals (proto's ERRORS: a code and its English text, sent in an ack or an HTTP answer) in the active
 * language (docs/i18n.md). English is proto's text exactly; the other languages have a text for every code. The
 * errors catalog must be loaded: the room's frame, the account pages and the superadmin's load it with their own area
 * (i18n.ts). This module and what it imports stay free of the room's session code, so every page can use it.
 */
import { ERRORS } from '@ephemera/proto/client';
import { hasText, t, type MessageId } from './i18n.ts';
import { ROOM_TEXTS, ROOM_TEXTS_WITH_REASON } from './roomTexts.ts';
import { ACCOUNT_TEXTS, ACCOUNT_TEXTS_WITH_DAYS } from './accountTexts.ts';
import { VALIDATION_TEXTS } from './validationTexts.ts';
import { SERVICE_TEXT_KEYS } from './serviceTexts.ts';

type ErrorCode = keyof typeof ERRORS;

/** Each code's key: literal keys, so the catalog check sees every one of them used. */
const ERROR_KEYS: Record<ErrorCode, MessageId> = {
  VALIDATION: 'errors.VALIDATION',
  UNKNOWN_EVENT: 'errors.UNKNOWN_EVENT',
  NOT_AUTHENTICATED: 'errors.NOT_AUTHENTICATED',
  WORKSPACE_NOT_FOUND: 'errors.WORKSPACE_NOT_FOUND',
  ROOM_NOT_FOUND: 'errors.ROOM_NOT_FOUND',
  ROOM_NAME_TAKEN: 'errors.ROOM_NAME_TAKEN',
  ROOM_NAME_RESERVED: 'errors.ROOM_NAME_RESERVED',
  ROOM_NAME_INVALID: 'errors.ROOM_NAME_INVALID',
  USERNAME_REQUIRED: 'errors.USERNAME_REQUIRED',
  USERNAME_TAKEN: 'errors.USERNAME_TAKEN',
  PASSWORD_REQUIRED: 'errors.PASSWORD_REQUIRED',
  PASSWORD_WRONG: 'errors.PASSWORD_WRONG',
  PASSWORD_TOO_SHORT: 'errors.PASSWORD_TOO_SHORT',
  ROOM_FULL: 'errors.ROOM_FULL',
  JOIN_FAILED: 'errors.JOIN_FAILED',
  CREATE_FAILED: 'errors.CREATE_FAILED',
  CHANNEL_CREATE_FAILED: 'errors.CHANNEL_CREATE_FAILED',
  CHANNEL_NAME_REQUIRED: 'errors.CHANNEL_NAME_REQUIRED',
  CHANNEL_NOT_FOUND: 'errors.CHANNEL_NOT_FOUND',
  CHANNEL_NAME_TAKEN: 'errors.CHANNEL_NAME_TAKEN',
  FORBIDDEN: 'errors.FORBIDDEN',
  NOT_A_MEMBER: 'errors.NOT_A_MEMBER',
  MESSAGE_EMPTY: 'errors.MESSAGE_EMPTY',
  MESSAGE_TOO_LONG: 'errors.MESSAGE_TOO_LONG',
  MESSAGE_NOT_FOUND: 'errors.MESSAGE_NOT_FOUND',
  NOT_AUTHOR: 'errors.NOT_AUTHOR',
  REPLY_TARGET_GONE: 'errors.REPLY_TARGET_GONE',
  USER_NOT_FOUND: 'errors.USER_NOT_FOUND',
  NOT_A_DM: 'errors.NOT_A_DM',
  NOT_DM_MEMBER: 'errors.NOT_DM_MEMBER',
  PROFILE_USERNAME_REQUIRED: 'errors.PROFILE_USERNAME_REQUIRED',
  RATE_LIMITED: 'errors.RATE_LIMITED',
  LINK_PREVIEW_FAILED: 'errors.LINK_PREVIEW_FAILED',
  LINK_PREVIEW_BLOCKED: 'errors.LINK_PREVIEW_BLOCKED',
  CANNOT_KICK_SELF: 'errors.CANNOT_KICK_SELF',
  CANNOT_KICK_OWNER: 'errors.CANNOT_KICK_OWNER',
  KICKED: 'errors.KICKED',
  MAX_USERS_INVALID: 'errors.MAX_USERS_INVALID',
  MAX_USERS_NOT_IN_TIER: 'errors.MAX_USERS_NOT_IN_TIER',
  MAX_USERS_ABOVE_TIER: 'errors.MAX_USERS_ABOVE_TIER',
  UNLIMITED_USERS_NOT_IN_TIER: 'errors.UNLIMITED_USERS_NOT_IN_TIER',
  THEME_NOT_IN_TIER: 'errors.THEME_NOT_IN_TIER',
  CUSTOM_THEME_REQUIRED: 'errors.CUSTOM_THEME_REQUIRED',
  EXTENSION_NEEDS_PAYMENT: 'errors.EXTENSION_NEEDS_PAYMENT',
  NEVER_EXPIRES: 'errors.NEVER_EXPIRES',
  FILE_TOO_LARGE: 'errors.FILE_TOO_LARGE',
  FILE_TYPE_NOT_SUPPORTED: 'errors.FILE_TYPE_NOT_SUPPORTED',
  FILE_NOT_FOUND: 'errors.FILE_NOT_FOUND',
  FILE_REQUIRED: 'errors.FILE_REQUIRED',
  PROFILE_IMAGE_TOO_LARGE: 'errors.PROFILE_IMAGE_TOO_LARGE',
  STORAGE_QUOTA_EXCEEDED: 'errors.STORAGE_QUOTA_EXCEEDED',
  PROFILE_IMAGE_TYPE: 'errors.PROFILE_IMAGE_TYPE',
  VOICE_CALLS_UNAVAILABLE: 'errors.VOICE_CALLS_UNAVAILABLE',
  VIDEO_CALLS_UNAVAILABLE: 'errors.VIDEO_CALLS_UNAVAILABLE',
  USER_BUSY: 'errors.USER_BUSY',
  ALREADY_IN_CALL: 'errors.ALREADY_IN_CALL',
  CALL_NOT_FOUND: 'errors.CALL_NOT_FOUND',
  AUTH_FIELDS_REQUIRED: 'errors.AUTH_FIELDS_REQUIRED',
  NO_AUTH_TOKEN: 'errors.NO_AUTH_TOKEN',
  SESSION_INVALID: 'errors.SESSION_INVALID',
  SIGN_IN_CODE_INVALID: 'errors.SIGN_IN_CODE_INVALID',
  ACCOUNT_NOT_FOUND: 'errors.ACCOUNT_NOT_FOUND',
  ACCOUNT_GONE: 'errors.ACCOUNT_GONE',
  CLAIM_FAILED: 'errors.CLAIM_FAILED',
  ROOM_ALREADY_CLAIMED: 'errors.ROOM_ALREADY_CLAIMED',
  NOT_ROOM_OWNER: 'errors.NOT_ROOM_OWNER',
  ROOM_LIMIT_REACHED: 'errors.ROOM_LIMIT_REACHED',
  GOOGLE_AUTH_FAILED: 'errors.GOOGLE_AUTH_FAILED',
  GOOGLE_NOT_CONFIGURED: 'errors.GOOGLE_NOT_CONFIGURED',
  DELETE_CONFIRMATION_REQUIRED: 'errors.DELETE_CONFIRMATION_REQUIRED',
  PAYMENTS_NOT_CONFIGURED: 'errors.PAYMENTS_NOT_CONFIGURED',
  PLAN_REQUIRED: 'errors.PLAN_REQUIRED',
  PAYMENT_SESSION_FAILED: 'errors.PAYMENT_SESSION_FAILED',
  EXTENSION_PAYMENT_FAILED: 'errors.EXTENSION_PAYMENT_FAILED',
  PAYMENT_NOT_VERIFIED: 'errors.PAYMENT_NOT_VERIFIED',
  EXTENSION_NOT_COMPLETED: 'errors.EXTENSION_NOT_COMPLETED',
  EXTENSION_FREE_FOR_TIER: 'errors.EXTENSION_FREE_FOR_TIER',
  PORTAL_FAILED: 'errors.PORTAL_FAILED',
  NO_BILLING_ACCOUNT: 'errors.NO_BILLING_ACCOUNT',
  WEBHOOK_SIGNATURE_INVALID: 'errors.WEBHOOK_SIGNATURE_INVALID',
  SUBSCRIPTION_UPDATE_REFUSED: 'errors.SUBSCRIPTION_UPDATE_REFUSED',
  AUTO_RENEWAL_FAILED: 'errors.AUTO_RENEWAL_FAILED',
  SUBSCRIPTION_IN_GRACE: 'errors.SUBSCRIPTION_IN_GRACE',
  SUBSCRIPTION_EXPIRED: 'errors.SUBSCRIPTION_EXPIRED',
  SUPERADMIN_REQUIRED: 'errors.SUPERADMIN_REQUIRED',
  MAINTENANCE: 'errors.MAINTENANCE',
  ACCOUNT_SUSPENDED: 'errors.ACCOUNT_SUSPENDED',
  BACKUP_INVALID: 'errors.BACKUP_INVALID',
  BACKUP_NOT_FOUND: 'errors.BACKUP_NOT_FOUND',
  FEEDBACK_NOT_FOUND: 'errors.FEEDBACK_NOT_FOUND',
  UNAVAILABLE: 'errors.UNAVAILABLE',
  INTERNAL: 'errors.INTERNAL',
};

const CODE_OF_TEXT = new Map<string, ErrorCode>(
  Object.entries(ERRORS).map(([code, text]) => [text, code as ErrorCode]),
);

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_KEYS, code);
}

/**
 * A field rule's refusal, a service's own (serviceTexts.ts), the browser's own text or billing's, by its English words,
 * when its catalog is loaded.
 */
function ownText(text: string): string | null {
  const rule = VALIDATION_TEXTS.get(text);
  if (rule && hasText(rule[0])) return t(...rule);
  const service = SERVICE_TEXT_KEYS.get(text);
  if (service && hasText(service[0])) return t(...service);
  const room = ROOM_TEXTS.get(text);
  const [roomKey, values] = typeof room === 'string' ? [room] : (room ?? []);
  if (roomKey && hasText(roomKey)) return t(roomKey, values);
  for (const [start, key] of ROOM_TEXTS_WITH_REASON) {
    if (text.startsWith(start) && hasText(key)) return t(key, { reason: errorText(null, text.slice(start.length)) });
  }
  const account = ACCOUNT_TEXTS.get(text);
  if (account && hasText(account)) return t(account);
  for (const [pattern, key] of ACCOUNT_TEXTS_WITH_DAYS) {
    const days = pattern.exec(text)?.[1];
    if (days !== undefined && hasText(key)) return t(key, { days: Number(days) });
  }
  return null;
}

/**
 * A refusal in the active language: by its code when the browser knows it, else by its text when that is one of
 * proto's, a field rule's (validationTexts.ts), a service's own (serviceTexts.ts), one of the room's own
 * (roomTexts.ts) or the account pages' (accountTexts.ts: callers that kept only the text), else the fallback as it
 * came (a text the browser does not know, such as a maintenance message the superadmin wrote, or one whose catalog
 * this page did not load).
 */
export function errorText(code: string | null | undefined, fallback: string): string {
  // VALIDATION carries a rule's own words (a field rule's or a service's): those say more than the code's text
  const rule = code === 'VALIDATION' ? ownText(fallback) : null;
  if (rule !== null) return rule;
  const known = code && isErrorCode(code) ? code : CODE_OF_TEXT.get(fallback);
  if (known && hasText(ERROR_KEYS[known])) return t(ERROR_KEYS[known]);
  return ownText(fallback) ?? fallback;
}
