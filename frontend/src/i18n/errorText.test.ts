/** The server's refusals in the active language (docs/i18n.md): English is proto's text, German covers every code. */
import { describe, expect, it } from 'vitest';
import { ERRORS } from '@ephemera/proto/client';
import { loadArea, setLocale } from './i18n.ts';
import { errorText } from './errorText.ts';
import {
  MSG_DELETE_FAILED,
  MSG_EDIT_FAILED,
  MSG_NOT_CONNECTED,
  MSG_REACTION_FAILED,
  MSG_REMOVED,
  MSG_SEND_FAILED,
  MSG_TIMED_OUT,
  MSG_UNKNOWN_ERROR,
  kickFailed,
} from '../lib/commandTexts.ts';

const codes = Object.keys(ERRORS) as (keyof typeof ERRORS)[];

describe('errorText', () => {
  it('shows proto’s English text exactly for every code', async () => {
    await setLocale('en', { save: false });
    await loadArea('roomside');
    for (const code of codes) expect(errorText(code, 'fallback'), code).toBe(ERRORS[code]);
  });

  it('shows a German text of its own for every code, found by the code or by proto’s English text', async () => {
    await setLocale('de', { save: false });
    await loadArea('roomside');
    for (const code of codes) {
      const german = errorText(code, 'fallback');
      expect(german, code).not.toBe(ERRORS[code]);
      expect(german, code).not.toMatch(/^errors\./);
      expect(errorText(null, ERRORS[code]), code).toBe(german);
    }
    expect(errorText('ROOM_FULL', '')).toBe('Dieser Raum ist voll');
  });

  it('shows the room’s own texts and their server reasons in the active language, English as the code says', async () => {
    await setLocale('en', { save: false });
    await loadArea('roomside');
    expect(errorText(null, MSG_REMOVED)).toBe(MSG_REMOVED);
    expect(errorText(null, kickFailed(ERRORS.CANNOT_KICK_OWNER))).toBe(kickFailed(ERRORS.CANNOT_KICK_OWNER));
    await setLocale('de', { save: false });
    expect(errorText(null, MSG_REMOVED)).toBe('Du wurdest aus diesem Chatraum entfernt.');
    expect(errorText(null, kickFailed(ERRORS.CANNOT_KICK_OWNER))).toBe(
      'Benutzer konnte nicht entfernt werden: Der Besitzer des Raums kann nicht entfernt werden',
    );
  });

  it('shows the chat commands’ notices and the reasons of an unanswered command in the active language', async () => {
    const texts = [MSG_DELETE_FAILED, MSG_EDIT_FAILED, MSG_REACTION_FAILED, MSG_SEND_FAILED];
    const reasons = [MSG_NOT_CONNECTED, MSG_TIMED_OUT, MSG_UNKNOWN_ERROR];
    await setLocale('en', { save: false });
    await loadArea('roomside');
    for (const text of [...texts, ...reasons.map(kickFailed)]) expect(errorText(null, text)).toBe(text);
    await setLocale('de', { save: false });
    for (const text of [...texts, ...reasons]) expect(errorText(null, text), text).not.toBe(text);
    expect(errorText(null, MSG_DELETE_FAILED)).toBe('Die Nachricht konnte nicht gelöscht werden');
    expect(errorText(null, kickFailed(MSG_NOT_CONNECTED))).toBe(
      'Benutzer konnte nicht entfernt werden: Nicht verbunden',
    );
  });

  it('leaves a text it does not know as it came', async () => {
    await setLocale('de', { save: false });
    await loadArea('roomside');
    expect(errorText('NO_SUCH_CODE', 'Back at 10:00')).toBe('Back at 10:00');
    expect(errorText(null, 'Back at 10:00')).toBe('Back at 10:00');
    expect(errorText('toString', 'x')).toBe('x');
  });
});
