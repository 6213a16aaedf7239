/**
 * Texts the product shows, defined once (docs/product/), in the active language (docs/i18n.md: the roomside
 * catalog, which the room's screens load). Server refusals come with their own text (proto's ERRORS, shown through
 * i18n/errorText.ts); these are the browser's own: what it says when a step it runs fails, or succeeds.
 */
import { t } from '../i18n/i18n.ts';

/**
 * Claim Your Room (docs/product/accounts.md A9). English words, not catalog texts: lib/claim.ts keeps an outcome as
 * text for the room to show later, possibly after the sign-in page; the room shows it through claimOutcomeText.
 */
export const CLAIM_TEXT = {
  title: 'Claim Your Room',
  success: 'Registration successful! Room ownership claimed.',
  failed: 'Registration successful but failed to claim room ownership',
} as const;

/** A claim's outcome as lib/claim.ts keeps it, in the active language (a server's reason after the colon as is). */
export function claimOutcomeText(message: string): string {
  if (message === CLAIM_TEXT.success) return t('roomside.claim.success');
  if (message === CLAIM_TEXT.failed) return t('roomside.claim.failed');
  if (message.startsWith(`${CLAIM_TEXT.failed}: `)) {
    return t('roomside.claim.failedBecause', { reason: message.slice(CLAIM_TEXT.failed.length + 2) });
  }
  return message;
}

/**
 * The room page's, the files', the dashboard's and the payments' own failure texts (docs/product/). The room's are
 * read in the active language; the dashboard's and the payments' are English words that a call keeps as its result's
 * message (the room's dialogs start payments too), shown in the active language through i18n/errorText.ts.
 */
export const UI_TEXT = {
  /** /{roomName} could not ask whether the room exists (rooms.md R5) */
  get roomCheckFailed() {
    return t('roomside.text.roomCheckFailed');
  },
  get roomCheckNetwork() {
    return t('roomside.text.roomCheckNetwork');
  },
  /** a chosen profile picture that does not decode as an image (rooms.md R27) */
  get imageReadFailed() {
    return t('roomside.text.imageReadFailed');
  },
  /** a chosen file that can no longer be read (moved or deleted after choosing; files.md F1) */
  get fileReadFailed() {
    return t('roomside.text.fileReadFailed');
  },
  /** a room command while no room is joined (rooms.md: the room's state errors) */
  get noWorkspace() {
    return t('roomside.text.noWorkspace');
  },
  /** the dashboard's room creation or opening did not reach the server (accounts.md A7) */
  createRoomRetry: 'Failed to create room. Please try again.',
  roomInfoFailed: 'Failed to get room info',
  /** the provider says the checkout was not paid (payments.md) */
  paymentFailed: 'Payment failed. Please try again.',
  /** a checkout the server refused with no text of its own (e.g. a proxy's error page; payments.md PAY1) */
  paymentSessionFailed: 'Failed to create payment session',
  /** the success page could not apply the verified subscription to the account, or the account's rooms (PAY9) */
  paidAccountFailed: 'Failed to create paid account',
  upgradeRoomsFailed: 'Failed to upgrade rooms',
};

/** Files sent without the dialog (docs/product/files.md F12): the drop zone names the conversation. */
export const FILE_SENDING_TEXT = {
  dropZone: (where: string) => t('roomside.files.dropZone', { where }),
} as const;
