/**
 * Claim Your Room in the browser (docs/product/accounts.md A9): with the dialog open, the e-mail and username
 * typed, the code read from the mail Mailpit caught, typed, and Register pressed; waits for the dialog's outcome.
 */
import type { Mailpit } from '../../test/helpers/mailpit.ts';
import { User, WAIT_MS } from './browser.ts';
import { mailedCode } from './sign-in.ts';

export async function claimInDialog(u: User, mail: Mailpit, email: string, username: string): Promise<void> {
  await u.byTestId('claim-modal').waitFor({ timeout: WAIT_MS });
  await u.byTestId('claim-email').fill(email);
  await u.byTestId('claim-username').fill(username);
  const since = Date.now();
  await u.byTestId('claim-send-code').click();
  await u.byTestId('claim-code').waitFor({ timeout: WAIT_MS });
  await u.byTestId('claim-code').fill(await mailedCode(mail, email, since));
  await u.byTestId('claim-verify').click();
  await u.byTestId('claim-outcome').waitFor({ timeout: WAIT_MS });
}
