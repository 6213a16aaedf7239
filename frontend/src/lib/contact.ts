/**
 * The contact form (docs/product/accounts.md A13): the same rules the server applies
 * (proto/src/contact.ts builds its schema from the constants of contact-paths.ts), checked before sending, and the
 * call itself. The newsletter box is part of the form but never of what is sent.
 */
import {
  CONTACT_CATEGORIES,
  CONTACT_CONTROL_CHARS,
  CONTACT_LIMITS,
  CONTACT_NAME_CONTROL_CHARS,
  CONTACT_PATH,
  CONTACT_TEXT,
  type ContactCategory,
} from '@ephemera/proto/client';

export interface ContactForm {
  name: string;
  email: string;
  /** '' until a subject is chosen */
  category: ContactCategory | '';
  message: string;
  newsletter: boolean;
}
export const EMPTY_CONTACT_FORM: ContactForm = { name: '', email: '', category: '', message: '', newsletter: false };

export type ContactField = 'name' | 'email' | 'category' | 'message';
export type ContactErrors = Partial<Record<ContactField, string>>;
/** the body of POST /api/contact: the form's four fields, trimmed */
export interface ContactPayload {
  name: string;
  email: string;
  category: ContactCategory;
  message: string;
}

/** An address with something before and after one @ and a dot in the domain (the server's check is the authority). */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Every field is required (docs/product/accounts.md A13); the texts are the server's. No errors: an empty object. */
export function validateContact(form: ContactForm): ContactErrors {
  const errors: ContactErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = CONTACT_TEXT.nameRequired;
  else if (name.length > CONTACT_LIMITS.nameMax) errors.name = CONTACT_TEXT.nameTooLong;
  else if (CONTACT_NAME_CONTROL_CHARS.test(name)) errors.name = CONTACT_TEXT.unsupportedCharacters;
  const email = form.email.trim();
  if (!email) errors.email = CONTACT_TEXT.emailRequired;
  else if (email.length > CONTACT_LIMITS.emailMax || !EMAIL.test(email)) errors.email = CONTACT_TEXT.emailInvalid;
  if (!(CONTACT_CATEGORIES as readonly string[]).includes(form.category))
    errors.category = CONTACT_TEXT.categoryRequired;
  const message = form.message.trim();
  if (!message) errors.message = CONTACT_TEXT.messageRequired;
  else if (message.length > CONTACT_LIMITS.messageMax) errors.message = CONTACT_TEXT.messageTooLong;
  else if (CONTACT_CONTROL_CHARS.test(message)) errors.message = CONTACT_TEXT.unsupportedCharacters;
  return errors;
}

/** What is sent: never the newsletter box. Call after validateContact found nothing. */
export function contactPayload(form: ContactForm): ContactPayload {
  return {
    name: form.name.trim(),
    email: form.email.trim(),
    category: form.category as ContactCategory,
    message: form.message.trim(),
  };
}

export type SendResult = { ok: true; id: string } | { ok: false; message: string; detail: string | null };

/**
 * POST /api/contact. A refusal shows the spec's 'Failed to send message. Please try again.', with the server's
 * reason when it gave one the visitor can act on (a field it refused, or the rate limit).
 */
export async function sendContactMessage(
  payload: ContactPayload,
  fetchImpl: typeof fetch = fetch,
): Promise<SendResult> {
  try {
    const res = await fetchImpl(CONTACT_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(payload),
    });
    const body = (await res.json().catch(() => null)) as { id?: string; code?: string; message?: string } | null;
    if (res.ok) return { ok: true, id: body?.id ?? '' };
    const explained =
      (res.status === 400 || res.status === 429) && typeof body?.message === 'string' ? body.message : null;
    return { ok: false, message: CONTACT_TEXT.failed, detail: explained };
  } catch {
    return { ok: false, message: CONTACT_TEXT.failed, detail: null };
  }
}
