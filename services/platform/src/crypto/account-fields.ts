/**
 * An account's e-mail and username at rest (docs/crypto.md, "Accounts"): sealed under the account's own data key
 * (billing's key store; destroyed when the account is deleted), with an AAD that binds each value to its account and
 * field. Lookups by e-mail (sign-in, registration uniqueness, the superadmin's search) compare a keyed hash instead:
 * an HMAC of the normalized address under the directory's lookup key, a data key of its own in the same store that
 * is never destroyed (it names nobody: without a guess of the address, a hash says nothing). Billing and
 * admin-analytics both store accounts, so both seal and hash through these functions.
 */
import { isSealed, type RoomKey } from './room-key.ts';
import type { RoomKeyStore } from './key-store.ts';
import type { RoomKeyring } from './keyring.ts';

/** The lookup key's id in billing's key store (never an account id, which starts with acc_, nor a room id). */
export const ACCOUNT_LOOKUP_KEY_ID = 'account-lookup';
const EMAIL_PURPOSE = 'account-email-v1';

export type AccountField = 'email' | 'username';
const aad = (accountId: string, field: AccountField) => `account:${accountId}:${field}`;

/** The one spelling of an address that lookups compare: trimmed and lower-cased, as EmailSchema gives it. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** `key` is the account's own key (its id is the account id). */
export const sealAccountField = (key: RoomKey, field: AccountField, value: string): string =>
  key.seal(value, aad(key.workspaceId, field));

/** A value stored before accounts were sealed is returned as it is (the start-up rewrite seals it). */
export const openAccountField = (key: RoomKey, field: AccountField, stored: string): string =>
  isSealed(stored) ? key.open(stored, aad(key.workspaceId, field)) : stored;

/** The keyed hash of an address: equal for the same address whatever its case, meaningless without the lookup key. */
export class EmailLookup {
  constructor(private readonly key: RoomKey) {}
  hash(email: string): string {
    return this.key.hash(EMAIL_PURPOSE, normalizeEmail(email));
  }
}

/** Billing, the key store's owner: the lookup key, created on the first start. */
export async function ownEmailLookup(store: RoomKeyStore): Promise<EmailLookup> {
  const existing = await store.get(ACCOUNT_LOOKUP_KEY_ID);
  if (existing) return new EmailLookup(existing);
  try {
    return new EmailLookup(await store.create(ACCOUNT_LOOKUP_KEY_ID));
  } catch (err) {
    // another replica created it at the same moment (create never replaces a key)
    const created = await store.get(ACCOUNT_LOOKUP_KEY_ID);
    if (!created) throw err;
    return new EmailLookup(created);
  }
}

/** Another service (admin-analytics): the lookup key through its keyring (distributed: asked of billing). */
export async function sharedEmailLookup(keyring: RoomKeyring): Promise<EmailLookup> {
  const key = await keyring.key(ACCOUNT_LOOKUP_KEY_ID);
  if (!key) throw new Error('the account lookup key is missing: billing creates it when it starts');
  return new EmailLookup(key);
}
