/**
 * The contact form (docs/product/accounts.md A13) without zod: the path, the subject
 * categories, the limits and the texts, shared by billing (proto/src/contact.ts builds the schema from them), the
 * ingress and the browser bundle (the Contact page checks the same rules before it sends).
 */

/** POST: the ingress sends this one path to billing (as /api/auth/ and /api/payments/). */
export const CONTACT_PATH = '/api/contact';

/** docs/product/accounts.md A13: the subject options, in the order the form offers them, with the form's labels */
export const CONTACT_CATEGORIES = ['general', 'support', 'billing', 'feature', 'bug', 'partnership', 'other'] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number];
export const CONTACT_CATEGORY_LABELS: { readonly [C in ContactCategory]: string } = {
  general: 'General question',
  support: 'Technical support',
  billing: 'Billing and payments',
  feature: 'Feature request',
  bug: 'Bug report',
  partnership: 'Partnership',
  other: 'Other',
};

export const CONTACT_LIMITS = { nameMax: 100, emailMax: 254, messageMax: 5000 } as const;

/** The admin's Feedback tab (docs/product/admin.md ADM11): every message starts pending; the admin sets the others. */
export const CONTACT_STATUSES = ['pending', 'read', 'responded', 'archived'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** What the form and the server say about a field (the server's 400 carries the same text). */
export const CONTACT_TEXT = {
  nameRequired: 'Please enter your name',
  nameTooLong: `Your name must be ${CONTACT_LIMITS.nameMax} characters or less`,
  emailRequired: 'Please enter your email',
  emailInvalid: 'Please enter a valid email address',
  categoryRequired: 'Please choose a subject',
  messageRequired: 'Please enter a message',
  messageTooLong: `Your message must be ${CONTACT_LIMITS.messageMax} characters or less`,
  unsupportedCharacters: 'Please remove the unsupported control characters',
  /** any failure to send */
  failed: 'Failed to send message. Please try again.',
} as const;

/** C0 control characters other than tab, line feed and carriage return (PostgreSQL text cannot hold NUL at all). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const CONTACT_CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** A name is one line: no control characters at all. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const CONTACT_NAME_CONTROL_CHARS = /[\u0000-\u001F\u007F]/;
