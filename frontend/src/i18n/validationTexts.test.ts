/**
 * The field rules' refusals in the active language (docs/i18n.md): each made by proto's own schema from a value the
 * interface lets through to the server, so the table follows proto's words; English exactly as the server sends it,
 * German of its own with the limit in place.
 */
import { describe, expect, it } from 'vitest';
import {
  AccountUsernameSchema,
  ChannelNameSchema,
  CheckoutSessionIdSchema,
  ConfigBodySchema,
  CustomRevenueQuerySchema,
  CustomThemeSchema,
  EmailSchema,
  MaintenanceBodySchema,
  ProfileUsernameSchema,
  ReasonBodySchema,
  RoomNameSchema,
  SearchMessagesSchema,
  SignInCodeSchema,
  UsernameSchema,
} from '@ephemera/proto';
import { activateLocale } from './i18n.ts';
import { errorText } from './errorText.ts';
import { VALIDATION_TEXTS } from './validationTexts.ts';

/** A schema of proto's, as far as this test reads it. */
interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } };
}

/** The text of the refusal the server sends for this value (services/platform validationError: the first issue's). */
function refusal(schema: Schema, value: unknown): string {
  const { success, error } = schema.safeParse(value);
  if (success || !error) throw new Error(`${JSON.stringify(value)} passed`);
  return error.issues[0]!.message;
}

const INVISIBLE = 'Al\u200bice';

/** Every refusal of proto's field rules that a visitor can bring about through the interface. */
const REFUSALS = [
  refusal(EmailSchema, ''),
  refusal(EmailSchema, 'no-at-sign'),
  refusal(SignInCodeSchema, '12345'),
  refusal(AccountUsernameSchema, '   '),
  refusal(AccountUsernameSchema, 'a'.repeat(31)),
  refusal(AccountUsernameSchema, INVISIBLE),
  refusal(RoomNameSchema, '  '),
  refusal(UsernameSchema, 'a'.repeat(21)),
  refusal(ProfileUsernameSchema, 'a'.repeat(31)),
  refusal(ChannelNameSchema, `news${INVISIBLE}`),
  refusal(SearchMessagesSchema.shape.query, '   '),
  refusal(CustomThemeSchema.shape.primaryColor, 'blue'),
  refusal(CustomThemeSchema.shape.logoUrl, 'http://example.com/logo.png'),
  refusal(CheckoutSessionIdSchema, 'cs-'),
  refusal(ReasonBodySchema, { reason: '  ' }),
  refusal(MaintenanceBodySchema, { enabled: true, message: '' }),
  refusal(ConfigBodySchema, { autoDeleteDaysAfterGracePeriod: 0 }),
  refusal(CustomRevenueQuerySchema, { startDate: '2026-02-01', endDate: '2026-01-31' }),
];

describe('the field rules’ refusals (validationTexts.ts through errorText)', () => {
  it('are each in the table, and the table holds no other text', () => {
    for (const text of REFUSALS) expect(VALIDATION_TEXTS.has(text), text).toBe(true);
    expect(new Set(REFUSALS)).toEqual(new Set(VALIDATION_TEXTS.keys()));
  });

  it('show exactly as the server sent them in English, and in German of their own', async () => {
    await activateLocale('en', ['errors']);
    for (const text of REFUSALS) expect(errorText(null, text)).toBe(text);
    await activateLocale('de', ['errors']);
    for (const text of REFUSALS) {
      expect(errorText(null, text), text).not.toBe(text);
      expect(errorText(null, text), text).not.toMatch(/^errors\./);
    }
    expect(errorText(null, refusal(UsernameSchema, 'a'.repeat(21)))).toBe(
      'Der Benutzername darf höchstens 20 Zeichen lang sein',
    );
    expect(errorText(null, refusal(ConfigBodySchema, { autoDeleteDaysAfterGracePeriod: 1001 }))).toBe(
      'Die Tage müssen eine ganze Zahl von 1 bis 1000 sein',
    );
  });
});
