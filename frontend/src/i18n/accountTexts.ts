/**
 * The account pages' English texts that reach the screen as strings (docs/i18n.md), each with its key in the account
 * catalog: what the account and payment calls say when the server gave no text of their own (lib/account.ts,
 * lib/paymentTexts.ts, lib/texts.ts), and what billing writes itself into the renewal status (proto's renewalStatus: the
 * banner's message and button). Each English text is its constant, or for the renewal messages proto's words with
 * the number of days in place; errorText reads these after proto's ERRORS and the room's own texts.
 */
import { ACCOUNT_CALL_TEXT } from '../lib/account.ts';
import { PAYMENT_TEXT } from '../lib/paymentTexts.ts';
import { UI_TEXT } from '../lib/texts.ts';
import type { MessageId } from './i18n.ts';

/** Whole texts. */
export const ACCOUNT_TEXTS = new Map<string, MessageId>([
  [UI_TEXT.createRoomRetry, 'account.text.createRoomRetry'],
  [UI_TEXT.roomInfoFailed, 'account.text.roomInfoFailed'],
  [UI_TEXT.paymentFailed, 'account.text.paymentFailed'],
  [UI_TEXT.paymentSessionFailed, 'account.text.paymentSessionFailed'],
  [UI_TEXT.paidAccountFailed, 'account.text.paidAccountFailed'],
  [UI_TEXT.upgradeRoomsFailed, 'account.text.upgradeRoomsFailed'],
  [PAYMENT_TEXT.selectPlan, 'account.payment.selectPlan'],
  [PAYMENT_TEXT.startFailed, 'account.text.startFailed'],
  [PAYMENT_TEXT.sessionMissing, 'account.text.sessionMissing'],
  [PAYMENT_TEXT.extendFailed, 'account.text.extendFailed'],
  [PAYMENT_TEXT.extensionFallback, 'account.text.extensionFallback'],
  [PAYMENT_TEXT.completeFailed, 'account.text.completeFailed'],
  [PAYMENT_TEXT.subscriptionFailed, 'account.text.subscriptionFailed'],
  [PAYMENT_TEXT.portalFallback, 'account.text.portalFallback'],
  [PAYMENT_TEXT.verificationFailed, 'account.text.verificationFailed'],
  [PAYMENT_TEXT.noToken, 'account.text.noToken'],
  [PAYMENT_TEXT.renewalFailed, 'account.text.renewalFailed'],
  [ACCOUNT_CALL_TEXT.network, 'account.text.networkError'],
  [ACCOUNT_CALL_TEXT.profile, 'account.text.profileFailed'],
  [ACCOUNT_CALL_TEXT.username, 'account.text.usernameFailed'],
  [ACCOUNT_CALL_TEXT.autoRenewal, 'account.text.autoRenewalFailed'],
  [ACCOUNT_CALL_TEXT.exportData, 'account.text.exportFailed'],
  [ACCOUNT_CALL_TEXT.roomToken, 'account.text.roomTokenFailed'],
  [ACCOUNT_CALL_TEXT.deleteAccount, 'account.text.deleteAccountFailed'],
  [ACCOUNT_CALL_TEXT.deleteRoom, 'account.text.deleteRoomFailed'],
  [ACCOUNT_CALL_TEXT.createRoom, 'account.text.createRoomFailed'],
  [ACCOUNT_CALL_TEXT.logout, 'account.text.logoutFailed'],
  // the sign-in calls' (the sign-in form in common, the login page in public)
  [ACCOUNT_CALL_TEXT.requestCode, 'common.emailCode.loginFailed'],
  [ACCOUNT_CALL_TEXT.register, 'common.emailCode.registrationFailed'],
  [ACCOUNT_CALL_TEXT.google, 'public.login.googleAuthFailed'],
  [ACCOUNT_CALL_TEXT.recover, 'public.login.recoveryFailed'],
  // the renewal status's texts without a number (proto/src/payments.ts renewalStatus, expiredRenewal)
  ['Renew now to avoid interruption.', 'account.renewal.message.renewNow'],
  ['Your subscription has expired. Renew now to regain full access.', 'account.renewal.message.expired'],
  ['Renew Subscription', 'account.renewal.button.renew'],
  ['Reactivate Subscription', 'account.renewal.button.reactivate'],
]);

/** The renewal status's messages with a number of days (its value is {days}). */
export const ACCOUNT_TEXTS_WITH_DAYS: [pattern: RegExp, key: MessageId][] = [
  [/^Grace period: (\d+) day\(s\) left\. Renew now to keep your data\.$/, 'account.renewal.message.grace'],
  [/^Expires in (\d+) day\(s\)\. Renew now to avoid interruption\.$/, 'account.renewal.message.urgent'],
  [/^Expires in (\d+) day\(s\)\. Renew soon to maintain access\.$/, 'account.renewal.message.warning'],
  [/^Expires in (\d+) days\. Consider renewing to avoid any interruption\.$/, 'account.renewal.message.reminder'],
];
