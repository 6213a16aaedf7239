/**
 * Stable error codes with the user-facing text. Where docs/product/ quotes a text we use it verbatim;
 * the others are ours and are listed in docs/protocol.md.
 */
export const ERRORS = {
  VALIDATION: 'Invalid request',
  UNKNOWN_EVENT: 'Unknown event',
  NOT_AUTHENTICATED: 'User not authenticated or no workspace',
  WORKSPACE_NOT_FOUND: 'Workspace not found or has expired',
  ROOM_NOT_FOUND: 'Room not found',
  ROOM_NAME_TAKEN: 'Room name is already taken',
  ROOM_NAME_RESERVED: 'This name is reserved',
  ROOM_NAME_INVALID: 'Use letters, numbers, hyphens and underscores only',
  USERNAME_REQUIRED: 'Please enter a username',
  USERNAME_TAKEN: 'Username is already taken',
  PASSWORD_REQUIRED: 'Please enter a password',
  PASSWORD_WRONG: 'Incorrect password',
  PASSWORD_TOO_SHORT: 'Password must be at least 6 characters',
  ROOM_FULL: 'This room is full',
  JOIN_FAILED: 'Failed to join workspace',
  CREATE_FAILED: 'Failed to create workspace',
  CHANNEL_CREATE_FAILED: 'Failed to create channel',
  CHANNEL_NAME_REQUIRED: 'Channel name is required',
  CHANNEL_NOT_FOUND: 'Channel not found',
  CHANNEL_NAME_TAKEN: 'A channel with that name already exists',
  FORBIDDEN: 'You do not have permission to do that',
  NOT_A_MEMBER: 'You are not a member of this channel',
  MESSAGE_EMPTY: 'Message cannot be empty',
  MESSAGE_TOO_LONG: 'Message is too long (2000 characters max)',
  MESSAGE_NOT_FOUND: 'Message not found',
  NOT_AUTHOR: 'Only the author can change this message',
  REPLY_TARGET_GONE: 'The message you are replying to no longer exists',
  USER_NOT_FOUND: 'User not found',
  NOT_A_DM: 'Channel is not a DM',
  NOT_DM_MEMBER: 'You are not a member of this DM conversation',
  PROFILE_USERNAME_REQUIRED: 'Username is required',
  RATE_LIMITED: 'Too many requests, please slow down',
  LINK_PREVIEW_FAILED: 'Could not load a preview for this link',
  LINK_PREVIEW_BLOCKED: 'This link cannot be previewed',
  CANNOT_KICK_SELF: 'You cannot kick yourself',
  CANNOT_KICK_OWNER: 'The room owner cannot be removed',
  KICKED: 'You were removed from this room',
  MAX_USERS_INVALID: 'Please enter a number 2 or higher, or "unlimited"',
  MAX_USERS_NOT_IN_TIER: 'Upgrade to Pro or Business to set the maximum number of users',
  MAX_USERS_ABOVE_TIER: 'Your plan does not allow that many users: upgrade to Business for more',
  UNLIMITED_USERS_NOT_IN_TIER: 'Unlimited users need the Business plan',
  THEME_NOT_IN_TIER: 'This theme is not available on your plan',
  CUSTOM_THEME_REQUIRED: 'Custom theme settings are missing',
  EXTENSION_NEEDS_PAYMENT: 'Extending a free room needs a paid plan',
  NEVER_EXPIRES: 'This room never expires',
  FILE_TOO_LARGE: 'Failed to send file. File might be too large.',
  FILE_TYPE_NOT_SUPPORTED: 'File type not supported',
  FILE_NOT_FOUND: 'File not found',
  FILE_REQUIRED: 'Upload failed',
  PROFILE_IMAGE_TOO_LARGE: 'Image size must be less than 5MB',
  STORAGE_QUOTA_EXCEEDED: "This room's file storage is full: remove files or upgrade the plan to upload more",
  PROFILE_IMAGE_TYPE: 'Please select an image file',
  // calls (docs/product/calls.md: the upgrade dialog's titles; the rest are ours)
  VOICE_CALLS_UNAVAILABLE: 'Voice Calls Unavailable',
  VIDEO_CALLS_UNAVAILABLE: 'Video Calls Unavailable',
  USER_BUSY: 'This user is in another call',
  ALREADY_IN_CALL: 'You are already in a call',
  CALL_NOT_FOUND: 'This call has ended',
  // accounts (docs/product/accounts.md where it has a text; sign-in codes and sessions are ours)
  AUTH_FIELDS_REQUIRED: 'Please fill in all fields',
  NO_AUTH_TOKEN: 'No authentication token',
  SESSION_INVALID: 'Your session has ended. Please sign in again.',
  SIGN_IN_CODE_INVALID: 'That code is wrong or has expired. Request a new one.',
  ACCOUNT_NOT_FOUND: 'No account with this email. Register first.',
  ACCOUNT_GONE: 'Failed to get profile',
  CLAIM_FAILED: 'Registration successful but failed to claim room ownership',
  ROOM_ALREADY_CLAIMED: 'This room already belongs to an account',
  NOT_ROOM_OWNER: "Only the room's owner account can do that",
  ROOM_LIMIT_REACHED: 'Your plan does not allow more rooms: upgrade for more',
  GOOGLE_AUTH_FAILED: 'Google authentication failed',
  GOOGLE_NOT_CONFIGURED: 'Google sign-in is not configured',
  DELETE_CONFIRMATION_REQUIRED: 'Please type DELETE to confirm',
  // payments (docs/product/payments.md where it has a text)
  PAYMENTS_NOT_CONFIGURED: 'Payments are not configured on this server',
  PLAN_REQUIRED: 'Please select a plan first',
  PAYMENT_SESSION_FAILED: 'Failed to create checkout session',
  EXTENSION_PAYMENT_FAILED: 'Failed to create room extension payment',
  PAYMENT_NOT_VERIFIED: "We couldn't verify your payment. Please contact support if you believe this is an error.",
  EXTENSION_NOT_COMPLETED: 'Failed to complete room extension',
  EXTENSION_FREE_FOR_TIER: 'Pro and Business rooms are extended free of charge',
  PORTAL_FAILED: 'Failed to create billing portal session',
  NO_BILLING_ACCOUNT: 'Unable to open billing portal. Please contact support.',
  WEBHOOK_SIGNATURE_INVALID: 'Invalid webhook signature',
  SUBSCRIPTION_UPDATE_REFUSED: 'Subscriptions change only through verified payments',
  AUTO_RENEWAL_FAILED: 'Failed to update auto-renewal settings',
  /** docs/product/payments.md PAY12: the grace period after a subscription's end */
  SUBSCRIPTION_IN_GRACE:
    'Your subscription has expired. During the grace period your rooms stay readable, but creating or extending rooms needs a renewal.',
  /** docs/product/payments.md PAY12: after the grace period */
  SUBSCRIPTION_EXPIRED: 'Your subscription has expired. Renew now to regain full access.',
  // administration (docs/product/admin.md where it has a text)
  SUPERADMIN_REQUIRED: 'Unauthorized: Superadmin access required',
  /** the message is the one the superadmin set (maintenance mode); this text only when there is none */
  MAINTENANCE: 'System is under maintenance. Please try again later.',
  ACCOUNT_SUSPENDED: 'This account is suspended',
  BACKUP_INVALID: 'Failed to import backup',
  BACKUP_NOT_FOUND: 'Backup not found',
  FEEDBACK_NOT_FOUND: 'Feedback message not found',
  UNAVAILABLE: 'Service temporarily unavailable, please try again',
  INTERNAL: 'Something went wrong, please try again',
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** The error shape on every HTTP answer and every failed socket ack. */
export interface ErrorBody {
  success?: false;
  code: ErrorCode;
  message: string;
  /** zod issues for VALIDATION errors */
  issues?: { path: string; message: string }[];
}

export class DomainError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message?: string,
    public readonly status = statusFor(code),
  ) {
    super(message ?? ERRORS[code]);
  }
  toBody(): ErrorBody {
    return { success: false, code: this.code, message: this.message };
  }
}

export function statusFor(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION':
    case 'UNKNOWN_EVENT':
    case 'ROOM_NAME_INVALID':
    case 'ROOM_NAME_RESERVED':
    case 'USERNAME_REQUIRED':
    case 'PASSWORD_REQUIRED':
    case 'PASSWORD_TOO_SHORT':
    case 'CHANNEL_NAME_REQUIRED':
    case 'MESSAGE_EMPTY':
    case 'MESSAGE_TOO_LONG':
    case 'NOT_A_DM':
    case 'PROFILE_USERNAME_REQUIRED':
    case 'CANNOT_KICK_SELF':
    case 'MAX_USERS_INVALID':
    case 'CUSTOM_THEME_REQUIRED':
    case 'NEVER_EXPIRES':
    case 'FILE_REQUIRED':
      return 400;
    case 'NOT_AUTHENTICATED':
    case 'PASSWORD_WRONG':
    case 'KICKED':
      return 401;
    case 'EXTENSION_NEEDS_PAYMENT':
    case 'MAX_USERS_NOT_IN_TIER':
    case 'MAX_USERS_ABOVE_TIER':
    case 'UNLIMITED_USERS_NOT_IN_TIER':
    case 'THEME_NOT_IN_TIER':
      return 402;
    case 'FORBIDDEN':
    case 'NOT_A_MEMBER':
    case 'ROOM_FULL':
    case 'NOT_AUTHOR':
    case 'NOT_DM_MEMBER':
    case 'CANNOT_KICK_OWNER':
      return 403;
    case 'WORKSPACE_NOT_FOUND':
    case 'ROOM_NOT_FOUND':
    case 'CHANNEL_NOT_FOUND':
    case 'MESSAGE_NOT_FOUND':
    case 'USER_NOT_FOUND':
      return 404;
    case 'REPLY_TARGET_GONE':
      return 409;
    case 'ROOM_NAME_TAKEN':
    case 'USERNAME_TAKEN':
    case 'CHANNEL_NAME_TAKEN':
      return 409;
    case 'RATE_LIMITED':
      return 429;
    case 'FILE_TOO_LARGE':
    case 'PROFILE_IMAGE_TOO_LARGE':
    case 'STORAGE_QUOTA_EXCEEDED':
      return 413;
    case 'FILE_TYPE_NOT_SUPPORTED':
    case 'PROFILE_IMAGE_TYPE':
      return 415;
    case 'FILE_NOT_FOUND':
      return 404;
    case 'VOICE_CALLS_UNAVAILABLE':
    case 'VIDEO_CALLS_UNAVAILABLE':
      return 402;
    case 'USER_BUSY':
    case 'ALREADY_IN_CALL':
      return 409;
    case 'CALL_NOT_FOUND':
      return 404;
    case 'AUTH_FIELDS_REQUIRED':
    case 'DELETE_CONFIRMATION_REQUIRED':
      return 400;
    case 'NO_AUTH_TOKEN':
    case 'SESSION_INVALID':
    case 'SIGN_IN_CODE_INVALID':
    case 'GOOGLE_AUTH_FAILED':
      return 401;
    case 'ACCOUNT_NOT_FOUND':
    case 'ACCOUNT_GONE':
      return 404;
    case 'CLAIM_FAILED':
    case 'NOT_ROOM_OWNER':
      return 403;
    case 'ROOM_ALREADY_CLAIMED':
      return 409;
    case 'ROOM_LIMIT_REACHED':
      return 402;
    case 'GOOGLE_NOT_CONFIGURED':
      return 503;
    case 'LINK_PREVIEW_FAILED':
    case 'LINK_PREVIEW_BLOCKED':
      return 422;
    case 'PLAN_REQUIRED':
    case 'WEBHOOK_SIGNATURE_INVALID':
      return 400;
    case 'SUPERADMIN_REQUIRED':
    case 'ACCOUNT_SUSPENDED':
      return 403;
    case 'MAINTENANCE':
      return 503;
    case 'BACKUP_INVALID':
      return 400;
    case 'BACKUP_NOT_FOUND':
    case 'FEEDBACK_NOT_FOUND':
      return 404;
    case 'PAYMENT_NOT_VERIFIED':
      return 402;
    case 'SUBSCRIPTION_UPDATE_REFUSED':
      return 403;
    case 'EXTENSION_FREE_FOR_TIER':
    case 'NO_BILLING_ACCOUNT':
    case 'EXTENSION_NOT_COMPLETED':
      return 409;
    case 'PAYMENT_SESSION_FAILED':
    case 'EXTENSION_PAYMENT_FAILED':
    case 'PORTAL_FAILED':
    case 'AUTO_RENEWAL_FAILED':
      return 502;
    case 'SUBSCRIPTION_IN_GRACE':
    case 'SUBSCRIPTION_EXPIRED':
      return 402;
    case 'PAYMENTS_NOT_CONFIGURED':
    case 'UNAVAILABLE':
      return 503;
    default:
      return 500;
  }
}
