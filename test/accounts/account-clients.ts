/** Test clients for accounts: sign-in by a code read from the real SMTP server, bearer calls, a cookie jar for OIDC. */
import { AUTH_API, type SessionAnswer } from '@ephemera/proto';
import { http } from '../helpers/clients.ts';
import type { Mailpit } from '../helpers/mailpit.ts';
import type { TestOidcProvider } from '../helpers/oidc-provider.ts';
import type { ContactMessages } from '@ephemera/billing';

export interface AccountTarget {
  url: string;
  /** a second gateway replica when distributed (sessions must hold across replicas) */
  urlB?: string;
  mail: Mailpit;
  oidc: TestOidcProvider;
  superadminEmail: string;
  /** billing's contact messages (its read model), to read back what the contact form stored */
  contact: ContactMessages;
  advanceClock(ms: number): void;
  stop(): Promise<void>;
}

let n = 0;
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}-${process.pid}-${Date.now().toString(36)}-${n++}@example.test`;
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Asks for a code and reads it from the mail the service sent. */
export async function mailedCode(t: AccountTarget, email: string): Promise<string> {
  const since = Date.now();
  const asked = await http(t.url, AUTH_API.requestCode, { body: { email } });
  if (asked.status !== 200) throw new Error(`request-code: ${asked.status} ${JSON.stringify(asked.body)}`);
  const mail = await t.mail.latestTo(email, { since });
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in: ${mail.text}`);
  return code;
}

/** Registers (or signs in) by e-mail code; returns the session answer. */
export async function register(
  t: AccountTarget,
  email: string,
  username = 'alice',
  extra: Record<string, unknown> = {},
): Promise<SessionAnswer> {
  const code = await mailedCode(t, email);
  const res = await http<SessionAnswer>(t.url, AUTH_API.register, { body: { email, username, code, ...extra } });
  if (res.status !== 200) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A minimal cookie jar for following the OIDC redirects by hand (cookies are per host, not per port). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  async get(url: string): Promise<Response> {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: this.header() } });
    this.take(res);
    return res;
  }
}

/**
 * The whole Google flow as a browser would run it: start -> provider (login + consent answered as `identity`) ->
 * our callback -> POST google-auth with the hand-off cookie. Returns the final answer and where the callback sent us.
 */
export async function googleSignIn(t: AccountTarget, identity: Parameters<TestOidcProvider['signInAs']>[0]) {
  const jar = new CookieJar();
  const callback = await googleUntilCallback(t, jar, identity);
  return googleFinish(t, jar, callback);
}

/** start -> provider (login + consent answered as `identity`): the address of our callback the provider sends `jar` to */
export async function googleUntilCallback(
  t: AccountTarget,
  jar: CookieJar,
  identity: Parameters<TestOidcProvider['signInAs']>[0],
): Promise<string> {
  t.oidc.signInAs(identity);
  let res = await jar.get(`${t.url}${AUTH_API.googleStart}?redirect=/dashboard`);
  if (res.status !== 303) throw new Error(`start: ${res.status} ${await res.text()}`);
  let location = res.headers.get('location')!;
  for (let hops = 0; hops < 10 && !location.includes(AUTH_API.googleCallback); hops++) {
    const url = new URL(location, location.startsWith('/') ? t.oidc.issuer : undefined).href;
    res = await jar.get(url);
    if (res.status < 300 || res.status >= 400) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    location = res.headers.get('location')!;
  }
  return location;
}

/** `jar` opens our callback (wherever its address points) and spends the hand-off: where it landed and the answer */
export async function googleFinish(t: AccountTarget, jar: CookieJar, callback: string) {
  const callbackUrl = new URL(callback);
  const res = await jar.get(`${t.url}${callbackUrl.pathname}${callbackUrl.search}`);
  const landing = res.headers.get('location')!;
  const answer = await http<SessionAnswer & { code?: string; message?: string }>(t.url, AUTH_API.googleAuth, {
    body: {},
    headers: { cookie: jar.header() },
  });
  return { landing, answer };
}
