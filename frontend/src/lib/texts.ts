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
  /** a checkout the server refused with no text of its own (e.g. a proxy's error page; payments.md PAY1) */
  paymentSessionFailed: 'Failed to create payment session',
  /** the success page could not apply the verified subscription to the account, or the account's rooms (PAY9) */
  paidAccountFailed: 'Failed to create paid account',
  upgradeRoomsFailed: 'Failed to upgrade rooms',
  /** a room command while no room is joined (rooms.md: the room's state errors) */
  noWorkspace: 'No workspace selected',
} as const;

/** Files sent without the dialog (docs/product/files.md F12) */
export const FILE_SENDING_TEXT = {
  dropZone: (where: string) => `Drop files to send them to ${where}`,
} as const;

/** Desktop notifications (docs/product/notifications.md) */
export const NOTIFICATION_TEXT = {
  turnOn: 'Turn on desktop notifications',
  on: 'Desktop notifications are on',
  blocked: 'Desktop notifications are blocked in this browser’s settings',
  unsupported: 'This browser cannot show desktop notifications',
  /** a DM: the sender's name; a mention: the sender in the channel */
  dmTitle: (author: string) => author,
  mentionTitle: (author: string, channel: string) => `${author} in #${channel}`,
} as const;
