/**
 * Texts the product shows, defined once (docs/product/). Server refusals come with their own text (proto's
 * ERRORS); these are the browser's own: what it says when a step it runs fails, or succeeds.
 */

/** Claim Your Room (docs/product/accounts.md A9) */
export const CLAIM_TEXT = {
  title: 'Claim Your Room',
  success: 'Registration successful! Room ownership claimed.',
  failed: 'Registration successful but failed to claim room ownership',
} as const;

/** The room page's, the dashboard's, the files' and the payments' own failure and success texts (docs/product/) */
export const UI_TEXT = {
  /** /{roomName} could not ask whether the room exists (rooms.md R5) */
  roomCheckFailed: 'Failed to check room status',
  roomCheckNetwork: 'Network error while checking room',
  /** a chosen profile picture that does not decode as an image (rooms.md R27) */
  imageReadFailed: 'Failed to read image file',
  /** a chosen file that can no longer be read (moved or deleted after choosing; files.md F1) */
  fileReadFailed: 'Failed to read file',
  /** the dashboard's room creation or opening did not reach the server (accounts.md A7) */
  createRoomRetry: 'Failed to create room. Please try again.',
  roomInfoFailed: 'Failed to get room info',
  /** the provider says the checkout was not paid (payments.md) */
  paymentFailed: 'Payment failed. Please try again.',
  roomExtended: (days: number) => `Room extended successfully for ${days} days!`,
} as const;
