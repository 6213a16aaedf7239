/**
 * Sign-in by e-mail code in the browser, as a person does it on /login: the e-mail and username typed, a code asked
 * for, read from the mail Mailpit caught, and typed in. One way for every browser test that signs in.
 */
import type { Mailpit } from '../../test/helpers/mailpit.ts';
import { User, WAIT_MS } from './browser.ts';

/** The 6-digit sign-in code of the newest mail to `email` sent after `since` (ms). */
export async function mailedCode(mail: Mailpit, email: string, since: number): Promise<string> {
  const code = /\b(\d{6})\b/.exec((await mail.latestTo(email, { since })).text)?.[1];
  if (!code) throw new Error(`no sign-in code in the mail to ${email}`);
  return code;
}

/**
 * On an open /login page: types the e-mail and username, asks for the code and types the mailed one. It stops before
 * "Sign in" (login-verify): a test may first start waiting for what that click causes, then click it.
 */
export async function enterMailedCode(u: User, mail: Mailpit, email: string, username: string): Promise<void> {
  await u.byTestId('login-email').fill(email);
  await u.byTestId('login-username').fill(username);
  const since = Date.now();
  await u.byTestId('login-send-code').click();
  await u.byTestId('login-code').waitFor({ timeout: WAIT_MS });
  await u.byTestId('login-code').fill(await mailedCode(mail, email, since));
}

/** Opens /login?redirect=…, signs in by the mailed code and waits to land on `redirect`. */
export async function signInByCode(
  u: User,
  mail: Mailpit,
  email: string,
  username: string,
  redirect: string,
): Promise<void> {
  await u.goto(`/login?redirect=${encodeURIComponent(redirect)}`);
  await enterMailedCode(u, mail, email, username);
  await u.byTestId('login-verify').click();
  await u.page.waitForURL((url) => url.pathname === redirect, { timeout: WAIT_MS });
}
