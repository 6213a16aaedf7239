/**
 * The server's refusals (proto's ERRORS: a code and its English text, sent in an ack or an HTTP answer) in the active
 * language (docs/i18n.md). English is proto's text exactly; the other languages have a text for every code. The
 * roomside catalog must be loaded (the room's screens load it).
 */
import { ERRORS } from '@ephemera/proto/client';
import { t, type MessageId } from './i18n.ts';
import { ROOM_TEXTS, ROOM_TEXTS_WITH_REASON } from './roomTexts.ts';

type ErrorCode = keyof typeof ERRORS;

/** Each code's key: literal keys, so the catalog check sees every one of them used. */
const ERROR_KEYS: Record<ErrorCode, MessageId> = {
  VALIDATION: 'roomside.error.VALIDATION',
  UNKNOWN_EVENT: 'roomside.error.UNKNOWN_EVENT',
  NOT_AUTHENTICATED: 'roomside.error.NOT_AUTHENTICATED',
  WORKSPACE_NOT_FOUND: 'roomside.error.WORKSPACE_NOT_FOUND',
  ROOM_NOT_FOUND: 'roomside.error.ROOM_NOT_FOUND',
  ROOM_NAME_TAKEN: 'roomside.error.ROOM_NAME_TAKEN',
  ROOM_NAME_RESERVED: 'roomside.error.ROOM_NAME_RESERVED',
  ROOM_NAME_INVALID: 'roomside.error.ROOM_NAME_INVALID',
  USERNAME_REQUIRED: 'roomside.error.USERNAME_REQUIRED',
  USERNAME_TAKEN: 'roomside.error.USERNAME_TAKEN',
  PASSWORD_REQUIRED: 'roomside.error.PASSWORD_REQUIRED',
  PASSWORD_WRONG: 'roomside.error.PASSWORD_WRONG',
  PASSWORD_TOO_SHORT: 'roomside.error.PASSWORD_TOO_SHORT',
  ROOM_FULL: 'roomside.error.ROOM_FULL',
  JOIN_FAILED: 'roomside.error.JOIN_FAILED',
  CREATE_FAILED: 'roomside.error.CREATE_FAILED',
  CHANNEL_CREATE_FAILED: 'roomside.error.CHANNEL_CREATE_FAILED',
  CHANNEL_NAME_REQUIRED: 'roomside.error.CHANNEL_NAME_REQUIRED',
  CHANNEL_NOT_FOUND: 'roomside.error.CHANNEL_NOT_FOUND',
  CHANNEL_NAME_TAKEN: 'roomside.error.CHANNEL_NAME_TAKEN',
  FORBIDDEN: 'roomside.error.FORBIDDEN',
  NOT_A_MEMBER: 'roomside.error.NOT_A_MEMBER',
  MESSAGE_EMPTY: 'roomside.error.MESSAGE_EMPTY',
  MESSAGE_TOO_LONG: 'roomside.error.MESSAGE_TOO_LONG',
  MESSAGE_NOT_FOUND: 'roomside.error.MESSAGE_NOT_FOUND',
  NOT_AUTHOR: 'roomside.error.NOT_AUTHOR',
  REPLY_TARGET_GONE: 'roomside.error.REPLY_TARGET_GONE',
  USER_NOT_FOUND: 'roomside.error.USER_NOT_FOUND',
  NOT_A_DM: 'roomside.error.NOT_A_DM',
  NOT_DM_MEMBER: 'roomside.error.NOT_DM_MEMBER',
  PROFILE_USERNAME_REQUIRED: 'roomside.error.PROFILE_USERNAME_REQUIRED',
  RATE_LIMITED: 'roomside.error.RATE_LIMITED',
  LINK_PREVIEW_FAILED: 'roomside.error.LINK_PREVIEW_FAILED',
  LINK_PREVIEW_BLOCKED: 'roomside.error.LINK_PREVIEW_BLOCKED',
  CANNOT_KICK_SELF: 'roomside.error.CANNOT_KICK_SELF',
  CANNOT_KICK_OWNER: 'roomside.error.CANNOT_KICK_OWNER',
  KICKED: 'roomside.error.KICKED',
  MAX_USERS_INVALID: 'roomside.error.MAX_USERS_INVALID',
  MAX_USERS_NOT_IN_TIER: 'roomside.error.MAX_USERS_NOT_IN_TIER',
  MAX_USERS_ABOVE_TIER: 'roomside.error.MAX_USERS_ABOVE_TIER',
  UNLIMITED_USERS_NOT_IN_TIER: 'roomside.error.UNLIMITED_USERS_NOT_IN_TIER',
  THEME_NOT_IN_TIER: 'roomside.error.THEME_NOT_IN_TIER',
  CUSTOM_THEME_REQUIRED: 'roomside.error.CUSTOM_THEME_REQUIRED',
  EXTENSION_NEEDS_PAYMENT: 'roomside.error.EXTENSION_NEEDS_PAYMENT',
  NEVER_EXPIRES: 'roomside.error.NEVER_EXPIRES',
  FILE_TOO_LARGE: 'roomside.error.FILE_TOO_LARGE',
  FILE_TYPE_NOT_SUPPORTED: 'roomside.error.FILE_TYPE_NOT_SUPPORTED',
  FILE_NOT_FOUND: 'roomside.error.FILE_NOT_FOUND',
  FILE_REQUIRED: 'roomside.error.FILE_REQUIRED',
  PROFILE_IMAGE_TOO_LARGE: 'roomside.error.PROFILE_IMAGE_TOO_LARGE',
  STORAGE_QUOTA_EXCEEDED: 'roomside.error.STORAGE_QUOTA_EXCEEDED',
  PROFILE_IMAGE_TYPE: 'roomside.error.PROFILE_IMAGE_TYPE',
  VOICE_CALLS_UNAVAILABLE: 'roomside.error.VOICE_CALLS_UNAVAILABLE',
  VIDEO_CALLS_UNAVAILABLE: 'roomside.error.VIDEO_CALLS_UNAVAILABLE',
  USER_BUSY: 'roomside.error.USER_BUSY',
  ALREADY_IN_CALL: 'roomside.error.ALREADY_IN_CALL',
  CALL_NOT_FOUND: 'roomside.error.CALL_NOT_FOUND',
  AUTH_FIELDS_REQUIRED: 'roomside.error.AUTH_FIELDS_REQUIRED',
  NO_AUTH_TOKEN: 'roomside.error.NO_AUTH_TOKEN',
  SESSION_INVALID: 'roomside.error.SESSION_INVALID',
  SIGN_IN_CODE_INVALID: 'roomside.error.SIGN_IN_CODE_INVALID',
  ACCOUNT_NOT_FOUND: 'roomside.error.ACCOUNT_NOT_FOUND',
  ACCOUNT_GONE: 'roomside.error.ACCOUNT_GONE',
  CLAIM_FAILED: 'roomside.error.CLAIM_FAILED',
  ROOM_ALREADY_CLAIMED: 'roomside.error.ROOM_ALREADY_CLAIMED',
  NOT_ROOM_OWNER: 'roomside.error.NOT_ROOM_OWNER',
  ROOM_LIMIT_REACHED: 'roomside.error.ROOM_LIMIT_REACHED',
  GOOGLE_AUTH_FAILED: 'roomside.error.GOOGLE_AUTH_FAILED',
  GOOGLE_NOT_CONFIGURED: 'roomside.error.GOOGLE_NOT_CONFIGURED',
  DELETE_CONFIRMATION_REQUIRED: 'roomside.error.DELETE_CONFIRMATION_REQUIRED',
  PAYMENTS_NOT_CONFIGURED: 'roomside.error.PAYMENTS_NOT_CONFIGURED',
  PLAN_REQUIRED: 'roomside.error.PLAN_REQUIRED',
  PAYMENT_SESSION_FAILED: 'roomside.error.PAYMENT_SESSION_FAILED',
  EXTENSION_PAYMENT_FAILED: 'roomside.error.EXTENSION_PAYMENT_FAILED',
  PAYMENT_NOT_VERIFIED: 'roomside.error.PAYMENT_NOT_VERIFIED',
  EXTENSION_NOT_COMPLETED: 'roomside.error.EXTENSION_NOT_COMPLETED',
  EXTENSION_FREE_FOR_TIER: 'roomside.error.EXTENSION_FREE_FOR_TIER',
  PORTAL_FAILED: 'roomside.error.PORTAL_FAILED',
  NO_BILLING_ACCOUNT: 'roomside.error.NO_BILLING_ACCOUNT',
  WEBHOOK_SIGNATURE_INVALID: 'roomside.error.WEBHOOK_SIGNATURE_INVALID',
  SUBSCRIPTION_UPDATE_REFUSED: 'roomside.error.SUBSCRIPTION_UPDATE_REFUSED',
  AUTO_RENEWAL_FAILED: 'roomside.error.AUTO_RENEWAL_FAILED',
  SUBSCRIPTION_IN_GRACE: 'roomside.error.SUBSCRIPTION_IN_GRACE',
  SUBSCRIPTION_EXPIRED: 'roomside.error.SUBSCRIPTION_EXPIRED',
  SUPERADMIN_REQUIRED: 'roomside.error.SUPERADMIN_REQUIRED',
  MAINTENANCE: 'roomside.error.MAINTENANCE',
  ACCOUNT_SUSPENDED: 'roomside.error.ACCOUNT_SUSPENDED',
  BACKUP_INVALID: 'roomside.error.BACKUP_INVALID',
  BACKUP_NOT_FOUND: 'roomside.error.BACKUP_NOT_FOUND',
  FEEDBACK_NOT_FOUND: 'roomside.error.FEEDBACK_NOT_FOUND',
  UNAVAILABLE: 'roomside.error.UNAVAILABLE',
  INTERNAL: 'roomside.error.INTERNAL',
};

const CODE_OF_TEXT = new Map<string, ErrorCode>(
  Object.entries(ERRORS).map(([code, text]) => [text, code as ErrorCode]),
);

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_KEYS, code);
}

/**
 * A refusal in the active language: by its code when the browser knows it, else by its text when that is one of
 * proto's or one of the room's own (roomTexts.ts: callers that kept only the text), else the fallback as it came (a
 * text the browser does not know, such as a maintenance message the superadmin wrote).
 */
export function errorText(code: string | null | undefined, fallback: string): string {
  const known = code && isErrorCode(code) ? code : CODE_OF_TEXT.get(fallback);
  if (known) return t(ERROR_KEYS[known]);
  const own = ROOM_TEXTS.get(fallback);
  if (own) return typeof own === 'string' ? t(own) : t(...own);
  for (const [start, key] of ROOM_TEXTS_WITH_REASON) {
    if (fallback.startsWith(start)) return t(key, { reason: errorText(null, fallback.slice(start.length)) });
  }
  return fallback;
}
