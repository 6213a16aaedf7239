/**
 * The contact form's route (POST /api/contact; docs/product/accounts.md A13) against a running
 * product, embedded or distributed (billing its own server behind the path router): a valid message is stored (read
 * back from billing's read model), every invalid field is a 400 with the field's text and stores nothing, the limit
 * of stored messages per address answers 429 with Retry-After, and no body gets a 500.
 * Every request here comes from one client address (127.0.0.1), whose budget is RATE_LIMIT_CONTACT_MESSAGES_PER_ADDRESS
 * (5 an hour): the tests count what is stored so far instead of assuming an order.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  CONTACT_CATEGORIES,
  CONTACT_PATH,
  CONTACT_TEXT,
  ERRORS,
  HTTP_AUTHZ,
  HTTP_ROUTES,
  ROLES,
  type ContactAnswer,
} from '@ephemera/proto';
import { rateLimitConfig } from '@ephemera/platform';
import { http } from '../helpers/clients.ts';
import { bearer, register, uniqueEmail, type AccountTarget } from './account-clients.ts';

/** the products here run with rateLimitConfig(process.env) for this limit (harness.ts accountTestLimits) */
const PER_ADDRESS = rateLimitConfig(process.env).contactMessagesPerAddress.points;
const valid = () => ({
  name: 'Ada Lovelace',
  email: uniqueEmail('contact'),
  category: 'support',
  message: 'My room expired too early.',
});

export function contactSuite(target: () => AccountTarget) {
  describe('the contact form (POST /api/contact)', () => {
    const stored = async () => (await target().contact.counts()).total;

    it('the authorization table lets everyone call it (rate-limited); the route is the one the browser posts to', () => {
      expect(HTTP_ROUTES.contact).toEqual({ method: 'POST', path: CONTACT_PATH });
      expect([...HTTP_AUTHZ.contact.allow].sort()).toEqual([...ROLES].sort());
      expect(HTTP_AUTHZ.contact.also).toMatch(/rate-limited/);
    });

    it('a valid message is stored as sent (trimmed, e-mail lower-cased, text byte-identical), pending; the newsletter box is not kept', async () => {
      const t = target();
      const before = await stored();
      const email = uniqueEmail('Contact');
      const message =
        'Quotes \' " ` , backslash \\, emoji 🎉, RTL עברית, a <script>alert(1)</script>\nand a second line\ttab';
      const res = await http<ContactAnswer>(t.url, CONTACT_PATH, {
        body: {
          name: '  Grace Hopper ',
          email: ` ${email.toUpperCase()} `,
          category: 'Bug',
          message,
          newsletter: true,
          status: 'responded',
          id: 'ctm_forged',
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toEqual({
        success: true,
        id: expect.stringMatching(/^ctm_[A-Za-z0-9]{20}$/),
        receivedAt: expect.any(String),
      });
      expect(res.headers.get('cache-control')).toContain('no-store');
      const row = await t.contact.byId(res.body.id);
      expect(row).toEqual({
        id: res.body.id,
        name: 'Grace Hopper',
        email: email.toLowerCase(),
        category: 'bug',
        message,
        status: 'pending',
        createdAt: res.body.receivedAt,
      });
      expect(await stored()).toBe(before + 1);
      expect(JSON.stringify(await t.contact.list())).not.toContain('newsletter');
      // signed in or not, the same: nothing about the caller is recorded beyond the form
      const s = await register(t, uniqueEmail('writer'));
      const signedIn = await http<ContactAnswer>(t.url, CONTACT_PATH, { body: valid(), headers: bearer(s.token) });
      expect(signedIn.status).toBe(201);
      expect((await t.contact.list({ limit: 1 }))[0]!.id).toBe(signedIn.body.id); // newest first
      expect(await stored()).toBe(before + 2);
    });

    it("each invalid field is refused with 400 and the field's text; nothing is stored", async () => {
      const t = target();
      const before = await stored();
      const cases: [Record<string, unknown>, string][] = [
        [{ name: undefined }, CONTACT_TEXT.nameRequired],
        [{ name: '   ' }, CONTACT_TEXT.nameRequired],
        [{ name: 'x'.repeat(101) }, CONTACT_TEXT.nameTooLong],
        [{ name: 'Ada\u0000' }, CONTACT_TEXT.unsupportedCharacters],
        [{ name: 'Ada\nLovelace' }, CONTACT_TEXT.unsupportedCharacters],
        [{ name: 42 }, CONTACT_TEXT.nameRequired],
        [{ email: undefined }, CONTACT_TEXT.emailRequired],
        [{ email: '' }, CONTACT_TEXT.emailRequired],
        [{ email: 'not-an-address' }, CONTACT_TEXT.emailInvalid],
        [{ email: 'a@b' }, CONTACT_TEXT.emailInvalid],
        [{ email: `${'a'.repeat(250)}@example.test` }, CONTACT_TEXT.emailInvalid],
        [{ category: undefined }, CONTACT_TEXT.categoryRequired],
        [{ category: '' }, CONTACT_TEXT.categoryRequired],
        [{ category: 'sales' }, CONTACT_TEXT.categoryRequired],
        [{ category: ['support'] }, CONTACT_TEXT.categoryRequired],
        [{ message: undefined }, CONTACT_TEXT.messageRequired],
        [{ message: ' \n\t ' }, CONTACT_TEXT.messageRequired],
        [{ message: 'x'.repeat(5001) }, CONTACT_TEXT.messageTooLong],
        [{ message: 'hello\u0000world' }, CONTACT_TEXT.unsupportedCharacters],
        [{ message: null }, CONTACT_TEXT.messageRequired],
      ];
      for (const [change, text] of cases) {
        const res = await http(t.url, CONTACT_PATH, { body: { ...valid(), ...change } });
        expect(res.status, `${JSON.stringify(change).slice(0, 80)}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body).toMatchObject({ success: false, code: 'VALIDATION', message: text });
      }
      for (const raw of ['{"name": "Ada", ', '"just a string"', '[]', 'null', '']) {
        const res = await http(t.url, CONTACT_PATH, { body: raw === '' ? undefined : raw, method: 'POST' });
        expect(res.status, raw).toBe(400);
        expect(res.body.code, raw).toBe('VALIDATION');
      }
      // exactly at the limits is fine: checked only, not stored here (the budget of this address is small)
      expect(await stored()).toBe(before);
      expect(CONTACT_CATEGORIES).toEqual(['general', 'support', 'billing', 'feature', 'bug', 'partnership', 'other']);
    });

    it(`stored messages per address are limited (RATE_LIMIT_CONTACT_MESSAGES_PER_ADDRESS, ${PER_ADDRESS} an hour): then 429 with Retry-After, nothing stored`, async () => {
      const t = target();
      const already = await stored(); // every message so far came from this address
      expect(already).toBeLessThan(PER_ADDRESS);
      const longest = { ...valid(), name: 'n'.repeat(100), message: 'm'.repeat(5000), category: 'partnership' };
      for (let i = already; i < PER_ADDRESS; i++) {
        const res = await http(t.url, CONTACT_PATH, { body: i === already ? longest : valid() });
        expect(res.status, `message ${i + 1}: ${JSON.stringify(res.body)}`).toBe(201);
      }
      expect(await stored()).toBe(PER_ADDRESS);
      const refused = await http(t.url, CONTACT_PATH, { body: valid() });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', message: ERRORS.RATE_LIMITED });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // an invalid body is still answered for what it is (validation comes first and costs nothing)
      expect((await http(t.url, CONTACT_PATH, { body: { ...valid(), email: 'nope' } })).status).toBe(400);
      if (t.urlB) expect((await http(t.urlB, CONTACT_PATH, { body: valid() })).status).toBe(429); // one count for every replica
      expect(await stored()).toBe(PER_ADDRESS);
      const counts = await t.contact.counts();
      expect(counts).toEqual({ total: PER_ADDRESS, pending: PER_ADDRESS, read: 0, responded: 0, archived: 0 });
    });

    it('fuzz: random bodies get a clear 4xx or a 201, never a 500', async () => {
      const t = target();
      const field = fc.oneof(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.emailAddress(),
        fc.constantFrom(...CONTACT_CATEGORIES, 'SUPPORT', ' bug '),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string()),
        fc.object(),
        fc.string({ minLength: 4990, maxLength: 5100 }),
      );
      const body = fc.oneof(
        fc.jsonValue(),
        fc.dictionary(
          fc.constantFrom('name', 'email', 'category', 'message', 'newsletter', 'subject', '__proto__', 'constructor'),
          field,
        ),
        fc.record({ name: field, email: field, category: field, message: field }),
      );
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const res = await http(t.url, CONTACT_PATH, { body: JSON.stringify(b) ?? 'null' });
          expect(res.status, JSON.stringify(b)?.slice(0, 200)).toBeLessThan(500);
          expect([201, 400, 429], `${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
        }),
        { numRuns: 200 },
      );
      const huge = await http(t.url, CONTACT_PATH, { body: { ...valid(), message: 'x'.repeat(200_000) } });
      expect(huge.status).toBeGreaterThanOrEqual(400);
      expect(huge.status).toBeLessThan(500);
      // the service still answers
      expect((await http(t.url, CONTACT_PATH, { body: { ...valid(), category: 'nope' } })).status).toBe(400);
    });
  });
}
