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
