/**
 * The services' own refusals in the active language (docs/i18n.md): every text of proto's SERVICE_TEXTS, the words the
 * services throw under VALIDATION, shows in English exactly as the service sends it and in German of its own, with
 * proto's limits in place. A text without its entry in serviceTexts.ts (or its catalog key) falls back to the English
 * and fails here.
 */
import { describe, expect, it } from 'vitest';
import { SERVICE_TEXTS } from '@ephemera/proto/client';
import { activateLocale } from './i18n.ts';
import { errorText } from './errorText.ts';
import { SERVICE_TEXT_KEYS } from './serviceTexts.ts';

const TEXTS = Object.values(SERVICE_TEXTS);

describe('the services’ own refusals (serviceTexts.ts through errorText)', () => {
  it('are each in the table, and the table holds no other text', () => {
    expect(TEXTS).toHaveLength(20);
    expect(new Set(SERVICE_TEXT_KEYS.keys())).toEqual(new Set(TEXTS));
  });

  it('keep the English the services have always sent', () => {
    expect(SERVICE_TEXTS.roomNameTooLong).toBe('Room name must be at most 50 characters');
    expect(SERVICE_TEXTS.captionTooLong).toBe('Caption is too long (200 characters max)');
    expect(SERVICE_TEXTS.voiceTooLong).toBe('A voice message is 5 minutes at most');
    expect(SERVICE_TEXTS.linkTooLong).toBe('The link is too long (2048 characters max)');
    expect(SERVICE_TEXTS.revenuePeriodTooLong).toBe('The period can be at most 366 days');
  });

  it('show exactly as the service sent them in English, and in German of their own', async () => {
    await activateLocale('en', ['errors']);
    for (const text of TEXTS) expect(errorText('VALIDATION', text)).toBe(text);
    for (const text of TEXTS) expect(errorText(null, text)).toBe(text);
    await activateLocale('de', ['errors']);
    for (const text of TEXTS) {
      expect(errorText(null, text), text).not.toBe(text);
      expect(errorText(null, text), text).not.toMatch(/^errors\.|[{}]/);
    }
    expect(errorText(null, SERVICE_TEXTS.callSelf)).toBe('Du kannst dich nicht selbst anrufen');
    expect(errorText('VALIDATION', SERVICE_TEXTS.callSelf)).toBe('Du kannst dich nicht selbst anrufen');
    expect(errorText(null, SERVICE_TEXTS.roomNameTooLong)).toBe('Der Raumname darf höchstens 50 Zeichen lang sein');
    expect(errorText(null, SERVICE_TEXTS.linkTooLong)).toBe('Der Link ist zu lang (höchstens 2048 Zeichen)');
    expect(errorText(null, SERVICE_TEXTS.revenuePeriodTooLong)).toBe('Der Zeitraum darf höchstens 366 Tage umfassen');
  });
});
