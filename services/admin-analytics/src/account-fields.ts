/**
 * The directory's copy of accounts at rest (docs/crypto.md, "Accounts"): e-mails and usernames sealed under each
 * account's key, which billing owns and destroys when the account is deleted, and the address's keyed hash for the
 * superadmin's search by exact e-mail. Keys come through this service's keyring (distributed: asked of billing, like
 * the keys that open billing's events), so once an account is deleted nothing of it here can be read again: not its
 * rows, not a backup of them.
 */
import { openAccountField, sealAccountField, sharedEmailLookup, type EmailLookup, type RoomKey, type RoomKeyring } from '@ephemera/platform';

export interface OpenedAccount { email: string; username: string | null }

export class AccountFields {
  private lookupKey: Promise<EmailLookup> | null = null;

  constructor(private readonly keyring: RoomKeyring) {}

  /** the account's key; null once the account is deleted */
  key(accountId: string): Promise<RoomKey | null> { return this.keyring.key(accountId); }

  /** the keyed hash of an address, as billing computes it (asked for once; a failure is asked again next time) */
  async emailHash(email: string): Promise<string> {
    this.lookupKey ??= sharedEmailLookup(this.keyring).catch((err) => { this.lookupKey = null; throw err; });
    return (await this.lookupKey).hash(email);
  }

  seal(key: RoomKey, field: 'email' | 'username', value: string): string { return sealAccountField(key, field, value); }

  /** a stored row's e-mail and username in the clear; null when the account's key is gone (deleted) */
  async open(row: { id: string; email: string; username: string | null }): Promise<OpenedAccount | null> {
    const key = await this.key(row.id);
    if (!key) return null;
    return { email: openAccountField(key, 'email', row.email), username: row.username === null ? null : openAccountField(key, 'username', row.username) };
  }
}
