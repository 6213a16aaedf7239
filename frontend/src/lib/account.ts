/**
 * The signed-in account in the browser (docs/product/rooms.md R37, accounts.md A4: auth token,
 * user object) and the account calls (docs/protocol.md "Accounts (billing)"). The token is the billing service's
 * bearer session token; the
 * server checks it on every call (a forged or revoked one gets 401 and the page signs out).
 */
import { AUTH_API, API } from '@ephemera/proto/client';
import type { AccountUser, ProfileAnswer, SessionAnswer } from '@ephemera/proto';
import { sameOriginPath } from './redirects.ts';

export const ACCOUNT_KEY = 'ephemera.account';

export interface AccountRecord {
  token: string;
  user: AccountUser;
}

export function readAccount(): AccountRecord | null {
  try {
    const raw = localStorage.getItem(ACCOUNT_KEY);
    const parsed = raw ? (JSON.parse(raw) as AccountRecord) : null;
    return parsed && typeof parsed.token === 'string' && parsed.user ? parsed : null;
  } catch {
    return null;
  }
}
export function saveAccount(record: AccountRecord): void {
  try {
    localStorage.setItem(ACCOUNT_KEY, JSON.stringify(record));
  } catch {
    /* storage disabled: signed in for this page only */
  }
}
export function clearAccount(): void {
  try {
    localStorage.removeItem(ACCOUNT_KEY);
  } catch {
    /* ignore */
  }
}

/** Where to go after signing in: a path of this site (redirects.ts), else the default. */
export function safeRedirect(value: string | null, fallback = '/dashboard'): string {
  return sameOriginPath(value) ?? fallback;
}

export type AccountResult<T> =
  { ok: true; data: T; response: Response } | { ok: false; status: number; code: string | null; message: string };

/**
 * What an account call says when the server gave no text of its own (English; the account pages show these in the
 * active language through i18n/errorText.ts).
 */
export const ACCOUNT_CALL_TEXT = {
  network: 'Network error',
  profile: 'Failed to get profile',
  username: 'Failed to update username',
  autoRenewal: 'Failed to update auto-renewal settings',
  exportData: 'Failed to export data',
  roomToken: 'Failed to generate room token',
  deleteAccount: 'Failed to delete account',
  deleteRoom: 'Failed to delete room. Please try again.',
  createRoom: 'Failed to create room',
  logout: 'Logout failed',
  requestCode: 'Login failed',
  register: 'Registration failed',
  google: 'Google authentication failed',
  recover: 'Username recovery failed',
} as const;

/** One account call: bearer token when signed in; the server's message or the spec's fallback text on failure. */
export async function accountCall<T>(
  path: string,
  fallback: string,
  init: { method?: string; body?: unknown; token?: string | null } = {},
): Promise<AccountResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  try {
    const response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      credentials: 'same-origin',
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (response.ok)
      return {
        ok: true,
        data: (await response
          .clone()
          .json()
          .catch(() => ({}))) as T,
        response,
      };
    const err = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    return { ok: false, status: response.status, code: err.code ?? null, message: err.message || fallback };
  } catch {
    return { ok: false, status: 0, code: null, message: ACCOUNT_CALL_TEXT.network };
  }
}

export const accountApi = {
  requestCode: (email: string) =>
    accountCall<{ message: string }>(AUTH_API.requestCode, ACCOUNT_CALL_TEXT.requestCode, { body: { email } }),
  register: (
    body: { email: string; username: string; code: string; claimWorkspaceId?: string; claimUserToken?: string },
    token: string | null,
  ) => accountCall<SessionAnswer>(AUTH_API.register, ACCOUNT_CALL_TEXT.register, { body, token }),
  googleAuth: () => accountCall<SessionAnswer>(AUTH_API.googleAuth, ACCOUNT_CALL_TEXT.google, { body: {} }),
  recoverUsername: (email: string) =>
    accountCall<{ message: string }>(AUTH_API.recoverUsername, ACCOUNT_CALL_TEXT.recover, { body: { email } }),
  profile: (token: string) => accountCall<ProfileAnswer>(AUTH_API.profile, ACCOUNT_CALL_TEXT.profile, { token }),
  updateUsername: (token: string, username: string) =>
    accountCall<{ user: AccountUser }>(AUTH_API.updateUsername, ACCOUNT_CALL_TEXT.username, {
      token,
      body: { username },
    }),
  autoRenewal: (token: string, autoRenewal: boolean) =>
    accountCall<{ autoRenewal: boolean }>(AUTH_API.autoRenewal, ACCOUNT_CALL_TEXT.autoRenewal, {
      token,
      body: { autoRenewal },
    }),
  exportData: (token: string) => accountCall<unknown>(AUTH_API.exportData, ACCOUNT_CALL_TEXT.exportData, { token }),
  generateRoomToken: (token: string, roomName: string) =>
    accountCall<{ workspaceId: string; roomName: string; ownerToken: string }>(
      AUTH_API.generateRoomToken,
      ACCOUNT_CALL_TEXT.roomToken,
      { token, body: { roomName } },
    ),
  deleteAccount: (token: string, confirmation: string) =>
    accountCall<{ success: true }>(AUTH_API.deleteAccount, ACCOUNT_CALL_TEXT.deleteAccount, {
      token,
      method: 'DELETE',
      body: { confirmation },
    }),
  deleteRoom: (token: string, workspaceId: string) =>
    accountCall<{ success: true }>(AUTH_API.deleteWorkspace(workspaceId), ACCOUNT_CALL_TEXT.deleteRoom, {
      token,
      method: 'DELETE',
    }),
  createRoom: (token: string, body: { name: string; username: string; password?: string; hasPassword: boolean }) =>
    accountCall<{ workspaceId: string; userToken: string; workspace: { id: string; name: string } }>(
      API.create(),
      ACCOUNT_CALL_TEXT.createRoom,
      { token, body },
    ),
  logout: (token: string) =>
    accountCall<{ success: true }>(AUTH_API.logout, ACCOUNT_CALL_TEXT.logout, { token, body: {} }),
  logoutAll: (token: string) =>
    accountCall<{ revoked: number }>(AUTH_API.logoutAll, ACCOUNT_CALL_TEXT.logout, { token, body: {} }),
};
