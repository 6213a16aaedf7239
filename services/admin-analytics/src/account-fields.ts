/**
 * The directory's copy of accounts at rest (docs/crypto.md, "Accounts"): e-mails and usernames sealed under each
 * account's key, which billing owns and destroys when the account is deleted, and the address's keyed hash for the
 * superadmin's search by exact e-mail, and the keyed hashes of their three-character runs for the search by a part
 * (searchGrams; docs/administration.md, "Searching sealed accounts"). Keys come through this service's keyring
 * (distributed: asked of billing, like the keys that open billing's events), so once an account is deleted nothing of it here can be read again: not its
 * rows, not a backup of them.
 */
import {
  ACCOUNT_LOOKUP_KEY_ID,
  openAccountField,
  sealAccountField,
  sharedEmailLookup,
  type EmailLookup,
  type RoomKey,
  type RoomKeyring,
} from '@ephemera/platform';
import { ADMIN_LIMITS } from '@ephemera/proto';

/** the length of a run: the shortest search of e-mails and usernames is one run */
const GRAM = ADMIN_LIMITS.accountSearchMin;
const SEARCH_PURPOSE = 'account-search-v1';
/** 72 bits of each hash: no two runs of one install collide in practice, and a stored array stays small */
const GRAM_HASH_CHARS = 12;

/** The one spelling searches compare: Unicode NFC, trimmed and lower-cased. */
const searchText = (text: string): string => text.normalize('NFC').trim().toLowerCase();

/** every run of GRAM characters (code points) in the normalized text, once each; none in a shorter text */
function gramsOf(text: string): string[] {
  const chars = Array.from(searchText(text));
  const grams = new Set<string>();
  for (let i = 0; i + GRAM <= chars.length; i++) grams.add(chars.slice(i, i + GRAM).join(''));
  return [...grams];
}

export interface OpenedAccount {
  email: string;
  username: string | null;
}

export class AccountFields {
  private lookupKey: Promise<EmailLookup> | null = null;
  private searchKey: Promise<RoomKey> | null = null;

  constructor(private readonly keyring: RoomKeyring) {}

  /** the account's key; null once the account is deleted */
  key(accountId: string): Promise<RoomKey | null> {
    return this.keyring.key(accountId);
  }

  /** the keyed hash of an address, as billing computes it (asked for once; a failure is asked again next time) */
  async emailHash(email: string): Promise<string> {
    this.lookupKey ??= sharedEmailLookup(this.keyring).catch((err) => {
      this.lookupKey = null;
      throw err;
    });
    return (await this.lookupKey).hash(email);
  }

  /**
   * The keyed hashes of a value's three-character runs (a stored row's, or a search's), under the directory's lookup
   * key with a purpose of their own: which runs an account's e-mail or username holds, readable only with that key.
   */
  async searchGrams(field: 'email' | 'username', text: string): Promise<string[]> {
    this.searchKey ??= this.keyring
      .key(ACCOUNT_LOOKUP_KEY_ID)
      .then((key) => {
        if (!key) throw new Error('the account lookup key is missing: billing creates it when it starts');
        return key;
      })
      .catch((err) => {
        this.searchKey = null;
        throw err;
      });
    const key = await this.searchKey;
    return gramsOf(text).map((gram) => key.hash(SEARCH_PURPOSE, `${field}\u0000${gram}`).slice(0, GRAM_HASH_CHARS));
  }

  seal(key: RoomKey, field: 'email' | 'username', value: string): string {
    return sealAccountField(key, field, value);
  }

  /** a stored row's e-mail and username in the clear; null when the account's key is gone (deleted) */
  async open(row: { id: string; email: string; username: string | null }): Promise<OpenedAccount | null> {
    const key = await this.key(row.id);
    if (!key) return null;
    return {
      email: openAccountField(key, 'email', row.email),
      username: row.username === null ? null : openAccountField(key, 'username', row.username),
    };
  }
}
