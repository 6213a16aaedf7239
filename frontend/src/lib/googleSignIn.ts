/**
 * Whether this server offers Google sign-in (docs/product/accounts.md A3): asked once per page load, and
 * "Continue with Google" is shown only once the server said it is on (never a link to a sign-in that is off).
 */
import { useEffect, useState } from 'react';
import { AUTH_API } from '@ephemera/proto/client';

let asked: Promise<boolean> | null = null;

export function googleSignInEnabled(): Promise<boolean> {
  asked ??= fetch(AUTH_API.googleStatus, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    .then(async (r) => r.ok && ((await r.json()) as { enabled?: unknown }).enabled === true)
    .catch(() => false);
  return asked;
}

export function useGoogleSignIn(): boolean {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let live = true;
    void googleSignInEnabled().then((on) => {
      if (live) setEnabled(on);
    });
    return () => {
      live = false;
    };
  }, []);
  return enabled;
}

/** The address that starts Google sign-in and comes back to `redirect` (a path of this site). */
export const googleStartUrl = (redirect: string) => `${AUTH_API.googleStart}?redirect=${encodeURIComponent(redirect)}`;
