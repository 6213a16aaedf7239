/**
 * Contact messages (docs/product/accounts.md A13; the admin's Feedback tab in
 * docs/product/admin.md): the body of POST /api/contact, the events billing records, and the read model's
 * shape. Plain constants and texts: contact-paths.ts (also in the browser bundle).
 * Every message's events are sealed under a key of the message's own (aggregate and partition key: the message id),
 * like an account's under the account key; deleting a message destroys its key first (docs/crypto.md).
 */
import { z } from 'zod';
import {
  CONTACT_CATEGORIES,
  CONTACT_CONTROL_CHARS,
  CONTACT_LIMITS,
  CONTACT_NAME_CONTROL_CHARS,
  CONTACT_STATUSES,
  CONTACT_TEXT,
  type ContactCategory,
  type ContactStatus,
} from './contact-paths.ts';

const text = (required: string) => z.string({ error: required }).trim().min(1, required);

/**
 * POST /api/contact: the spec's payload (name, email, message, category). Unknown fields (the form's newsletter
 * box is never sent) are dropped. Every refusal is a 400 VALIDATION with the field's text.
 */
export const ContactBodySchema = z.object({
  name: text(CONTACT_TEXT.nameRequired)
    .max(CONTACT_LIMITS.nameMax, CONTACT_TEXT.nameTooLong)
    .refine((s) => !CONTACT_NAME_CONTROL_CHARS.test(s), CONTACT_TEXT.unsupportedCharacters),
  email: text(CONTACT_TEXT.emailRequired)
    .toLowerCase()
    .max(CONTACT_LIMITS.emailMax, CONTACT_TEXT.emailInvalid)
    .pipe(z.email(CONTACT_TEXT.emailInvalid)),
  category: z
    .string({ error: CONTACT_TEXT.categoryRequired })
    .trim()
    .toLowerCase()
    .pipe(z.enum(CONTACT_CATEGORIES, CONTACT_TEXT.categoryRequired)),
  message: text(CONTACT_TEXT.messageRequired)
    .max(CONTACT_LIMITS.messageMax, CONTACT_TEXT.messageTooLong)
    .refine((s) => !CONTACT_CONTROL_CHARS.test(s), CONTACT_TEXT.unsupportedCharacters),
});
export type ContactBody = z.output<typeof ContactBodySchema>;

/** the admin's status dropdown (the Feedback tab) */
export const ContactStatusSchema = z.enum(CONTACT_STATUSES, 'Choose pending, read, responded or archived');

/** 201: the message is stored (durable in the log, then in the read model). */
export interface ContactAnswer {
  success: true;
  id: string;
  receivedAt: string;
}

// ---- events (topic billing; aggregate and partition key: the message id; sealed under the message's key) ----
export const ContactMessageReceivedSchema = z.object({
  messageId: z.string(),
  name: z.string(),
  email: z.string(),
  category: z.enum(CONTACT_CATEGORIES),
  message: z.string(),
  receivedAt: z.string(),
});
/** the admin's status dropdown (the Feedback tab): pending, read, responded, archived */
export const ContactMessageStatusChangedSchema = z.object({
  messageId: z.string(),
  status: ContactStatusSchema,
  changedAt: z.string(),
});
/** The tombstone: recorded after the message's key is destroyed, so it carries nothing personal (stays readable). */
export const ContactMessageDeletedSchema = z.object({ messageId: z.string(), deletedAt: z.string() });

/** A row of the read model, as the admin's Feedback tab lists it (id, name, email, message, status, createdAt). */
export interface ContactMessageView {
  id: string;
  name: string;
  email: string;
  category: ContactCategory;
  message: string;
  status: ContactStatus;
  createdAt: string;
}
/** The Feedback tab's counts. */
export type ContactCounts = { total: number } & { [S in ContactStatus]: number };

export {
  CONTACT_PATH,
  CONTACT_CATEGORIES,
  CONTACT_CATEGORY_LABELS,
  CONTACT_LIMITS,
  CONTACT_STATUSES,
  CONTACT_TEXT,
  type ContactCategory,
  type ContactStatus,
} from './contact-paths.ts';
