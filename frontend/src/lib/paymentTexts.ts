/** The payment flows' texts in English (split from payments.ts: lean enough for the i18n tables to import). */

/**
 * The payment flows' texts (docs/product/payments.md), in English: the pages show them in the active language through
 * i18n/errorText.ts (the room's dialogs show some of them too).
 */
export const PAYMENT_TEXT = {
  selectPlan: 'Please select a plan first',
  startFailed: 'Failed to start payment process. Please try again.',
  sessionMissing: 'Payment session creation failed',
  extendFailed: 'Failed to extend room. Please try again.',
  extensionFallback: 'Failed to create room extension payment',
  completeFailed: 'Failed to complete room extension',
  subscriptionFailed: 'Failed to fetch subscription data',
  portalFallback: 'Failed to create billing portal session',
  verificationFailed: "We couldn't verify your payment. Please contact support if you believe this is an error.",
  noToken: 'No authentication token',
  renewalFailed: 'Renewal failed',
} as const;

export const paymentErrorText = (message: string) => `Payment Error: ${message}`;
