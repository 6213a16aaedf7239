/**
 * The field rules' own refusals: the English texts proto's schemas put in a VALIDATION refusal (the first issue's
 * message, services/platform's validationError) that a visitor can meet through the interface, each with its key in
 * the errors catalog and the values of its placeholders (limits as written, without grouping, so the German follows
 * proto's limits). errorText reads these after proto's ERRORS (a rule worded as an ERRORS text is found there); a text
 * only a hand-made request can bring (an id's format, a value the interface only offers from a list) shows as it
 * came (docs/i18n.md). validationTexts.test.ts makes each refusal with proto's schemas and checks it is here, so a
 * reworded rule fails the test instead of falling back to English.
 */
import { ACCOUNT_USERNAME_MAX, ADMIN_LIMITS, ADMIN_TEXT, LIMITS } from '@ephemera/proto/client';
import type { MessageId, MessageValues } from './i18n.ts';

const { minDays, maxDays } = ADMIN_LIMITS.autoDelete;

export const VALIDATION_TEXTS = new Map<string, [MessageId, MessageValues?]>([
  // signing in and the account (proto/src/accounts.ts)
  ['Please enter your email', ['errors.validation.emailRequired']],
  ['Please enter a valid email address', ['errors.validation.emailInvalid']],
  ['Enter the 6-digit code from the e-mail', ['errors.validation.signInCode']],
  ['Please enter a new username', ['errors.validation.accountUsernameRequired']],
  [
    `Username must be ${ACCOUNT_USERNAME_MAX} characters or less`,
    ['errors.validation.accountUsernameTooLong', { max: String(ACCOUNT_USERNAME_MAX) }],
  ],
  // names in the room (proto/src/models.ts)
  ['Room name is required', ['errors.validation.roomNameRequired']],
  [
    `Username must be at most ${LIMITS.usernameMax} characters`,
    ['errors.validation.usernameTooLong', { max: String(LIMITS.usernameMax) }],
  ],
  [
    `Username must be at most ${LIMITS.profileUsernameMax} characters`,
    ['errors.validation.usernameTooLong', { max: String(LIMITS.profileUsernameMax) }],
  ],
  ['Username contains invisible or formatting characters', ['errors.validation.usernameInvisible']],
  ['Channel name contains invisible or formatting characters', ['errors.validation.channelNameInvisible']],
  // the room's commands (proto/src/socket.ts)
  ['Search is empty', ['errors.validation.searchEmpty']],
  ['Use a colour like #3B82F6', ['errors.validation.colour']],
  ['The logo must be an https address', ['errors.validation.logoHttps']],
  // payments (proto/src/payments.ts): a return address with a mangled session id
  ['Unknown payment session', ['errors.validation.paymentSessionUnknown']],
  // the superadmin's forms (proto/src/admin.ts)
  [ADMIN_TEXT.reasonRequired, ['errors.validation.reasonRequired']],
  [ADMIN_TEXT.maintenanceMessageRequired, ['errors.validation.maintenanceMessageRequired']],
  [ADMIN_TEXT.autoDeleteDays, ['errors.validation.autoDeleteDays', { min: String(minDays), max: String(maxDays) }]],
  ['The start date must not be after the end date', ['errors.validation.startAfterEnd']],
]);
