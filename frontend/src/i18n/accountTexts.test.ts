/**
 * The account pages' own texts and billing's renewal texts in the active language (docs/i18n.md): English exactly as
 * the code and proto write them, German of its own, and as they came on a page that did not load the account area.
 */
import { describe, expect, it } from 'vitest';
import { renewalStatus, type RenewalStatus } from '@ephemera/proto';
import { activateLocale } from './i18n.ts';
import { errorText } from './errorText.ts';
import { ACCOUNT_TEXTS } from './accountTexts.ts';
import { ACCOUNT_CALL_TEXT } from '../lib/account.ts';
import { PAYMENT_TEXT } from '../lib/paymentTexts.ts';

const DAY = 86_400_000;
const NOW = new Date('2026-06-01T12:00:00Z');

/** Every renewal status billing can answer that the banner shows: each urgency, the grace period and expired. */
function renewals(): RenewalStatus[] {
  const shown: RenewalStatus[] = [];
  for (const tier of ['pro', 'business'] as const) {
    shown.push(renewalStatus({ tier, paymentStatus: 'past_due', expiresAt: null }, NOW));
    for (let days = -10; days <= 8; days++) {
      const status = renewalStatus(
        { tier, paymentStatus: 'active', expiresAt: new Date(NOW.getTime() + days * DAY) },
        NOW,
      );
      if (status.needsRenewal) shown.push(status);
    }
  }
  return shown;
}

describe('the account pages’ texts (accountTexts.ts through errorText)', () => {
  it('stay as they came on a page that did not load the account area', async () => {
    await activateLocale('de', ['roomside']);
    expect(errorText(null, ACCOUNT_CALL_TEXT.network)).toBe(ACCOUNT_CALL_TEXT.network);
    expect(errorText(null, 'Renew Subscription')).toBe('Renew Subscription');
  });

  it('are English exactly as the code writes them, and German of their own', async () => {
    // the sign-in calls' texts are the sign-in form's (common) and the login page's (public)
    await activateLocale('en', ['account', 'common', 'public']);
    for (const text of ACCOUNT_TEXTS.keys()) expect(errorText(null, text)).toBe(text);
    await activateLocale('de', ['account', 'common', 'public']);
    for (const text of ACCOUNT_TEXTS.keys()) {
      expect(errorText(null, text), text).not.toBe(text);
      expect(errorText(null, text), text).not.toMatch(/^account\./);
    }
    expect(errorText(null, PAYMENT_TEXT.startFailed)).toBe(
      'Der Zahlungsvorgang konnte nicht gestartet werden. Bitte versuche es noch einmal.',
    );
  });

  it('show billing’s renewal message and button as billing wrote them in English, and in German', async () => {
    const shown = renewals();
    expect(new Set(shown.map((s) => s.renewalUrgency))).toEqual(new Set(['urgent', 'warning', 'reminder', 'expired']));
    await activateLocale('en', ['account']);
    for (const { message, buttonLabel } of shown) {
      expect(errorText(null, message ?? '')).toBe(message);
      expect(errorText(null, buttonLabel)).toBe(buttonLabel);
    }
    await activateLocale('de', ['account']);
    for (const { message, buttonLabel } of shown) {
      expect(errorText(null, message ?? ''), message ?? '').not.toBe(message);
      expect(errorText(null, buttonLabel)).not.toBe(buttonLabel);
    }
    expect(errorText(null, 'Expires in 1 day(s). Renew now to avoid interruption.')).toBe(
      'Läuft in 1 Tag ab. Verlängere jetzt, damit nichts unterbrochen wird.',
    );
    expect(errorText(null, 'Grace period: 3 day(s) left. Renew now to keep your data.')).toBe(
      'Kulanzzeit: noch 3 Tage. Verlängere jetzt, um deine Daten zu behalten.',
    );
  });
});
