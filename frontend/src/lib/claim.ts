/**
 * Claiming a guest's room for an account from inside the room (docs/product/accounts.md A9). By e-mail code the
 * claim rides on the registration (claimWorkspaceId + the guest owner's token). By Google the browser leaves the
 * page: the room to claim is remembered (pendingClaim), the account's session claims it when it comes back
 * (POST claim-ownership with the guest owner's token), and the outcome waits for the room to show it.
 * Either way the guest token stops working once the room service rotates it, so the new owner token replaces it in
 * this browser's room session.
 */
import { AUTH_API } from '@ephemera/proto/client';
import { accountApi, accountCall, saveAccount, type AccountRecord } from './account.ts';
import { readAuth, saveAuth, type KeyValueStore } from './storage.ts';
import { CLAIM_TEXT } from './texts.ts';

export type ClaimOutcome = { claimed: true; message: string } | { claimed: false; message: string };

const PENDING_CLAIM_KEY = 'ephemera.pendingClaim';
const CLAIM_OUTCOME_KEY = 'ephemera.claimOutcome';

function defaultStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

const failed = (reason?: string | null): ClaimOutcome => ({
  claimed: false,
  message: reason ? `${CLAIM_TEXT.failed}: ${reason}` : CLAIM_TEXT.failed,
});

/** The new owner token replaces the guest's for this room (the replaced one no longer opens it). */
function adoptOwnerToken(workspaceId: string, newUserToken: string | undefined, store: KeyValueStore | null): boolean {
  const guest = readAuth(store);
  if (!newUserToken || guest?.workspaceId !== workspaceId) return false;
  saveAuth({ ...guest, userToken: newUserToken }, store);
  return true;
}

/**
 * Registers (or signs in) by the mailed code with the room's claim. `account` is null when the registration itself
 * was refused (its message in `error`); otherwise signed in, and the outcome says whether the room was claimed.
 */
export async function registerAndClaim(
  input: { email: string; username: string; code: string },
  workspaceId: string,
  store = defaultStore(),
): Promise<{ account: null; error: string } | { account: AccountRecord; outcome: ClaimOutcome }> {
  const guest = readAuth(store);
  if (guest?.workspaceId !== workspaceId) return { account: null, error: failed().message };
  const r = await accountApi.register(
    { ...input, claimWorkspaceId: workspaceId, claimUserToken: guest.userToken },
    null,
  );
  if (!r.ok) return { account: null, error: r.message };
  const account = { token: r.data.token, user: r.data.user };
  saveAccount(account);
  if (r.data.claimError) return { account, outcome: { claimed: false, message: r.data.claimError } };
  if (!adoptOwnerToken(workspaceId, r.data.newUserToken, store)) return { account, outcome: failed() };
  return { account, outcome: { claimed: true, message: CLAIM_TEXT.success } };
}

/** Before leaving for Google: the room to claim when the browser comes back signed in. */
export function savePendingClaim(workspaceId: string, store = defaultStore()): void {
  try {
    store?.setItem(PENDING_CLAIM_KEY, workspaceId);
  } catch {
    /* storage disabled: nothing to claim later */
  }
}

/**
 * Signed in (back from Google): claims the pending room with the guest owner's token and keeps the outcome for the
 * room's page. Nothing pending, or this browser holds no guest session for that room: nothing happens.
 */
export async function claimPendingRoom(account: AccountRecord, store = defaultStore()): Promise<ClaimOutcome | null> {
  let workspaceId: string | null = null;
  try {
    workspaceId = store?.getItem(PENDING_CLAIM_KEY) ?? null;
    store?.removeItem(PENDING_CLAIM_KEY);
  } catch {
    /* ignore */
  }
  const guest = readAuth(store);
  if (!workspaceId || guest?.workspaceId !== workspaceId) return null;
  const r = await accountCall<{ newUserToken?: string; workspaceId?: string }>(
    AUTH_API.claimOwnership(workspaceId),
    CLAIM_TEXT.failed,
    { token: account.token, body: { userToken: guest.userToken } },
  );
  const outcome = !r.ok
    ? failed(r.message === CLAIM_TEXT.failed ? null : r.message)
    : adoptOwnerToken(workspaceId, r.data.newUserToken, store)
      ? { claimed: true, message: CLAIM_TEXT.success }
      : failed();
  try {
    store?.setItem(CLAIM_OUTCOME_KEY, JSON.stringify({ workspaceId, ...outcome }));
  } catch {
    /* ignore */
  }
  return outcome;
}

/** The outcome of a claim made while the room's page was away, once, for that room's page. */
export function takeClaimOutcome(workspaceId: string, store = defaultStore()): ClaimOutcome | null {
  try {
    const raw = store?.getItem(CLAIM_OUTCOME_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as { workspaceId?: unknown; claimed?: unknown; message?: unknown };
    if (v.workspaceId !== workspaceId) return null;
    store?.removeItem(CLAIM_OUTCOME_KEY);
    return typeof v.message === 'string' ? ({ claimed: v.claimed === true, message: v.message } as ClaimOutcome) : null;
  } catch {
    return null;
  }
}
