/** The language choice, the on-demand catalogs, the Intl helpers and the build's catalog compiler (docs/i18n.md). */
import { describe, expect, it } from 'vitest';
import { chooseLocale, matchLocale } from './locales.ts';
import { activateLocale, activeLocale, i18n, loadArea, setLocale, t } from './i18n.ts';
import { formatCurrency, formatDate, formatList, formatNumber, formatTime } from './format.ts';
import { compileCatalog, shortIds, shortenKeys } from '../../lingui-catalogs.ts';
import { CONTACT_TEXT, ERRORS } from '@ephemera/proto/client';
import { SERVER_TEXT, translateShared } from './sharedTexts.ts';

describe('the language choice', () => {
  it('takes the saved choice first, then the first browser language the interface speaks, else English', () => {
    expect(chooseLocale('de', ['en-US'])).toBe('de');
    expect(chooseLocale(null, ['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(chooseLocale('xx', ['en-GB', 'de'])).toBe('en');
    expect(chooseLocale(null, ['fr', 'ja'])).toBe('en');
    expect(chooseLocale(null, [])).toBe('en');
  });
  it('matches a tag by its language', () => {
    expect(matchLocale('DE_ch')).toBe('de');
    expect(matchLocale('german')).toBeNull();
  });
});

describe('the catalogs on demand', () => {
  it('switches only once the areas in use are loaded in the new language, and formats plurals in it', async () => {
    await setLocale('en', { save: false });
    await loadArea('common');
    expect(t('common.status.tryAgain')).toBe('Try again');
    expect(t('common.messages.newCount', { count: 1 })).toBe('1 new message');
    expect(t('common.messages.newCount', { count: 1200 })).toBe('1,200 new messages');
    await setLocale('de', { save: false });
    expect(activeLocale()).toBe('de');
    expect(t('common.status.tryAgain')).toBe('Erneut versuchen');
    expect(t('common.messages.newCount', { count: 1200 })).toBe('1.200 neue Nachrichten');
    expect(i18n.messages['common.footer.terms']).toBeDefined();
  });
});

describe('Intl helpers', () => {
  it('format in the active language', async () => {
    const when = new Date(2026, 11, 7, 19, 5);
    await setLocale('de', { save: false });
    expect(formatDate(when)).toBe('7. Dezember 2026');
    expect(formatTime(when)).toBe('19:05');
    expect(formatNumber(1234.5)).toBe('1.234,5');
    expect(formatCurrency(5, 'USD')).toBe('5,00\u00a0$');
    expect(formatList(['a', 'b', 'c'])).toBe('a, b und c');
    await setLocale('en', { save: false });
    expect(formatDate(when)).toBe('December 7, 2026');
    expect(formatTime(when)).toBe('19:05');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('the build’s catalog compiler (lingui-catalogs.ts)', () => {
  it('gives every English key a short id and shortens quoted keys in code, leaving other strings alone', () => {
    const ids = shortIds();
    const id = ids.get('common.status.tryAgain')!;
    expect(id).toMatch(/^[0-9a-z]{1,3}$/);
    expect(shortenKeys(`t('common.status.tryAgain'); x("common.nope"); y('a.b')`, ids)).toBe(
      `t('${id}'); x("common.nope"); y('a.b')`,
    );
  });
  it('compiles messages under their ids and refuses a key English lacks or a message that does not parse', () => {
    const ids = new Map([['common.a', '0']]);
    expect(compileCatalog('x.json', '{"common.a":"{n, plural, one {# day} other {# days}}"}', ids)).toEqual({
      0: [['n', 'plural', { one: ['#', ' day'], other: ['#', ' days'] }]],
    });
    expect(() => compileCatalog('x.json', '{"common.b":"B"}', ids)).toThrow(/not in the English catalogs/);
    expect(() => compileCatalog('x.json', '{"common.a":"{n, plural, one {#}"}', ids)).toThrow(/not valid ICU/);
  });
});

describe('texts shared with the server (sharedTexts.ts)', () => {
  it('shows a known shared text in the active language, with its limits, and an unknown one as it came', async () => {
    expect(SERVER_TEXT).toEqual({
      googleNotConfigured: ERRORS.GOOGLE_NOT_CONFIGURED,
      roomNameAvailable: 'Room name is available', // the room service's answer for a free name
      roomNameTaken: ERRORS.ROOM_NAME_TAKEN,
      roomNameReserved: ERRORS.ROOM_NAME_RESERVED,
      roomNameInvalid: ERRORS.ROOM_NAME_INVALID,
      usernameAvailable: 'Username is available',
      usernameTaken: ERRORS.USERNAME_TAKEN,
      // billing's sign-in notices (services/billing/src/billing-service.ts requestCode, recoverUsername)
      signInCodeSentTo: 'We sent a sign-in code to ',
      usernameSent: 'If an account uses this address, we sent its username there.',
    });
    await activateLocale('de', ['public', 'common']);
    expect(translateShared(ERRORS.ROOM_NAME_TAKEN)).toBe('Der Raumname ist bereits vergeben');
    expect(translateShared(CONTACT_TEXT.emailInvalid)).toBe('Bitte gib eine gültige E-Mail-Adresse ein');
    expect(translateShared(CONTACT_TEXT.messageTooLong)).toBe('Deine Nachricht darf höchstens 5000 Zeichen lang sein');
    expect(translateShared('Too many requests')).toBe('Too many requests');
    expect(translateShared('We sent a sign-in code to a@b.example')).toBe(
      'Wir haben einen Anmeldecode an a@b.example geschickt',
    );
    expect(translateShared(SERVER_TEXT.usernameSent)).toBe(
      'Wenn ein Konto diese Adresse nutzt, haben wir seinen Benutzernamen dorthin geschickt.',
    );
    await activateLocale('en', ['public']);
    expect(translateShared('We sent a sign-in code to a@b.example')).toBe('We sent a sign-in code to a@b.example');
    expect(translateShared(SERVER_TEXT.usernameSent)).toBe(SERVER_TEXT.usernameSent);
    expect(translateShared(CONTACT_TEXT.messageTooLong)).toBe(CONTACT_TEXT.messageTooLong);
    expect(translateShared(CONTACT_TEXT.nameTooLong)).toBe(CONTACT_TEXT.nameTooLong);
  });
});
