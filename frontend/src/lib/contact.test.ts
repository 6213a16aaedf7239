import { describe, expect, it } from 'vitest';
import { CONTACT_CATEGORIES, CONTACT_PATH, CONTACT_TEXT } from '@ephemera/proto/client';
import {
  EMPTY_CONTACT_FORM,
  contactPayload,
  sendContactMessage,
  validateContact,
  type ContactForm,
} from './contact.ts';

const filled: ContactForm = {
  name: 'Ada',
  email: 'ada@example.com',
  category: 'support',
  message: 'Hello',
  newsletter: true,
};

describe('contact form rules (docs/product/accounts.md A13)', () => {
  it("an empty form: every field is required, with the server's texts", () => {
    expect(validateContact(EMPTY_CONTACT_FORM)).toEqual({
      name: CONTACT_TEXT.nameRequired,
      email: CONTACT_TEXT.emailRequired,
      category: CONTACT_TEXT.categoryRequired,
      message: CONTACT_TEXT.messageRequired,
    });
    expect(validateContact({ ...filled, name: '   ', message: '\n\t ' })).toEqual({
      name: CONTACT_TEXT.nameRequired,
      message: CONTACT_TEXT.messageRequired,
    });
  });

  it('a complete form passes; the newsletter box plays no part', () => {
    expect(validateContact(filled)).toEqual({});
    expect(validateContact({ ...filled, newsletter: false })).toEqual({});
  });

  it('the e-mail must look like an address', () => {
    for (const email of [
      'ada',
      'ada@',
      '@example.com',
      'ada@example',
      'a da@example.com',
      'ada@@example.com',
      'ada@example..com',
    ]) {
      expect(validateContact({ ...filled, email }).email, email).toBe(CONTACT_TEXT.emailInvalid);
    }
    for (const email of ['ada@example.com', ' Ada.Lovelace+x@mail.example.co.uk '])
      expect(validateContact({ ...filled, email }).email, email).toBeUndefined();
    expect(validateContact({ ...filled, email: `${'a'.repeat(250)}@ex.com` }).email).toBe(CONTACT_TEXT.emailInvalid);
  });

  it('the subject is one of the seven categories', () => {
    expect(CONTACT_CATEGORIES).toEqual(['general', 'support', 'billing', 'feature', 'bug', 'partnership', 'other']);
    for (const category of CONTACT_CATEGORIES) expect(validateContact({ ...filled, category })).toEqual({});
    expect(validateContact({ ...filled, category: '' }).category).toBe(CONTACT_TEXT.categoryRequired);
    expect(validateContact({ ...filled, category: 'sales' as never }).category).toBe(CONTACT_TEXT.categoryRequired);
  });

  it('lengths and control characters as the server checks them', () => {
    expect(validateContact({ ...filled, name: 'n'.repeat(100) })).toEqual({});
    expect(validateContact({ ...filled, name: 'n'.repeat(101) }).name).toBe(CONTACT_TEXT.nameTooLong);
    expect(validateContact({ ...filled, message: 'm'.repeat(5000) })).toEqual({});
    expect(validateContact({ ...filled, message: 'm'.repeat(5001) }).message).toBe(CONTACT_TEXT.messageTooLong);
    expect(validateContact({ ...filled, name: 'Ada\nL' }).name).toBe(CONTACT_TEXT.unsupportedCharacters);
    expect(validateContact({ ...filled, message: 'a\u0000b' }).message).toBe(CONTACT_TEXT.unsupportedCharacters);
    expect(validateContact({ ...filled, message: 'line one\nline two\ttabbed' })).toEqual({});
  });

  it('the payload is the four fields, trimmed, without the newsletter box', () => {
    expect(contactPayload({ ...filled, name: ' Ada ', message: ' Hello \n' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      category: 'support',
      message: 'Hello',
    });
  });
});

describe('sending (docs/product/accounts.md A13: "Failed to send message. Please try again.")', () => {
  const answer = (status: number, body: unknown) => async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('posts the payload as JSON to /api/contact', async () => {
    const calls: [string, RequestInit][] = [];
    const fake = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return answer(201, { success: true, id: 'ctm_1' })();
    }) as unknown as typeof fetch;
    expect(await sendContactMessage(contactPayload(filled), fake)).toEqual({ ok: true, id: 'ctm_1' });
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe(CONTACT_PATH);
    expect(calls[0]![1].method).toBe('POST');
    expect(JSON.parse(String(calls[0]![1].body))).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      category: 'support',
      message: 'Hello',
    });
  });

  it("a refusal gives the spec's text, with the server's reason for a bad field or the rate limit only", async () => {
    const payload = contactPayload(filled);
    expect(
      await sendContactMessage(
        payload,
        answer(400, { code: 'VALIDATION', message: CONTACT_TEXT.emailInvalid }) as unknown as typeof fetch,
      ),
    ).toEqual({ ok: false, message: CONTACT_TEXT.failed, detail: CONTACT_TEXT.emailInvalid });
    expect(
      await sendContactMessage(
        payload,
        answer(429, {
          code: 'RATE_LIMITED',
          message: 'Too many requests, please slow down',
        }) as unknown as typeof fetch,
      ),
    ).toEqual({ ok: false, message: CONTACT_TEXT.failed, detail: 'Too many requests, please slow down' });
    expect(
      await sendContactMessage(
        payload,
        answer(500, { code: 'INTERNAL', message: 'Internal error' }) as unknown as typeof fetch,
      ),
    ).toEqual({ ok: false, message: 'Failed to send message. Please try again.', detail: null });
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect(await sendContactMessage(payload, offline)).toEqual({
      ok: false,
      message: CONTACT_TEXT.failed,
      detail: null,
    });
    const notJson = (async () => new Response('<html>Bad gateway</html>', { status: 502 })) as unknown as typeof fetch;
    expect(await sendContactMessage(payload, notJson)).toEqual({
      ok: false,
      message: CONTACT_TEXT.failed,
      detail: null,
    });
  });
});
