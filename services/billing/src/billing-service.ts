/**
 * The billing service's account use cases (docs/product/accounts.md): sign-in by e-mail code, sessions, profile,
 * username, export, deletion, and the room calls that need an account (claim, owner token); the contact form's
 * messages (contact.ts). Each use case checks, decides its events and records them through account-writes.ts (the
 * account's lock, then platform's recorder: durable in the log, then applied to billing.accounts).
 * Every account's events are sealed under a key of its own, destroyed on deletion (docs/crypto.md).
 */
import {
  DomainError,
  ENTITLEMENTS,
  limitsOf,
  type AccountRoomsApi,
  type AccountStanding,
  type Actor,
  type DomainEventType,
  type ProfileAnswer,
  type SessionAccount,
  type SessionAnswer,
  type Tier,
} from '@ephemera/proto';
import {
  RoomKeyring,
  parseOrThrow,
  userActor,
  type EmailLookup,
  type EventLog,
  type Logger,
  type Pool,
  type Projector,
  type RoomKeyStore,
} from '@ephemera/platform';
import {
  RegisterBodySchema,
  LoginBodySchema,
  RequestCodeBodySchema,
  RecoverUsernameBodySchema,
  UpdateUsernameBodySchema,
  AutoRenewalBodySchema,
  DeleteAccountBodySchema,
  GenerateRoomTokenBodySchema,
} from '@ephemera/proto';
import {
  AccountsRepository,
  presentAccount,
  standingOf,
  type AccountRow,
  type AccountSealing,
} from './accounts-repository.ts';
import { SignInCodes, Sessions } from './credentials.ts';
import { accountProjector, sealLegacyAccounts } from './projection.ts';
import { ContactMessages } from './contact.ts';
import { AccountWrites } from './account-writes.ts';
import { accountOfGoogle, claimOnRegister, type VerifiedGoogleIdentity } from './sign-in.ts';
import type { Mailer } from './mailer.ts';

export interface BillingDeps {
  pool: Pool;
  log: EventLog;
  logger: Logger;
  mailer: Mailer;
  /** one key per account: created before account.registered, destroyed before account.deleted */
  accountKeys: RoomKeyStore;
  /** the keyring over it that the sealed log uses (absent: one of this service's own) */
  accountKeyring?: RoomKeyring;
  /** the keyed hash of addresses (the lookup key in the same store: account-fields.ts ownEmailLookup) */
  emailLookup: EmailLookup;
  rooms: AccountRoomsApi;
  /** SUPERADMIN_EMAIL: this account sees the admin-area button */
  superadminEmail?: string | null;
  now?: () => Date;
}

export type { VerifiedGoogleIdentity } from './sign-in.ts';

export class BillingService {
  readonly accounts: AccountsRepository;
  readonly codes: SignInCodes;
  readonly sessions: Sessions;
  /** the contact form's messages (contact.ts): sealed under a key of each message's own in the account key store */
  readonly contact: ContactMessages;
  /** billing's read model of accounts: e-mails and usernames sealed under each account's key (accounts-repository.ts) */
  readonly projector: Projector;
  private readonly now: () => Date;
  private readonly superadmin: string | null;
  /** the accounts' keys in memory; an account's is forgotten when it is destroyed (eraseAccount) and when account.deleted arrives */
  private readonly keyring: RoomKeyring;
  private readonly sealing: AccountSealing;
  /** every account event is recorded there (account-writes.ts: the account's lock, then platform's recorder) */
  private readonly writes: AccountWrites;

  constructor(private readonly deps: BillingDeps) {
    this.now = deps.now ?? (() => new Date());
    this.keyring = deps.accountKeyring ?? new RoomKeyring((id) => deps.accountKeys.get(id));
    this.sealing = { keyring: this.keyring, lookup: deps.emailLookup };
    this.accounts = new AccountsRepository(deps.pool, this.sealing);
    this.projector = accountProjector(this.sealing);
    this.writes = new AccountWrites({
      pool: deps.pool,
      log: deps.log,
      logger: deps.logger,
      accounts: this.accounts,
      accountKeys: deps.accountKeys,
      keyring: this.keyring,
      projector: this.projector,
      now: this.now,
    });
    this.codes = new SignInCodes(deps.pool, this.now, deps.emailLookup);
    this.sessions = new Sessions(deps.pool, this.now);
    this.contact = new ContactMessages({
      pool: deps.pool,
      log: deps.log,
      logger: deps.logger,
      keys: deps.accountKeys,
      now: this.now,
    });
    this.superadmin = deps.superadminEmail?.trim().toLowerCase() || null;
  }

  /** Accounts stored in the clear by an earlier version: sealed once, at start (projection.ts). */
  sealLegacyAccounts(): Promise<number> {
    return sealLegacyAccounts(this.deps.pool, this.sealing, this.deps.logger);
  }

  /** Mails a one-time code. The answer is the same whether or not an account exists for the address. */
  async requestCode(body: unknown): Promise<{ success: true; message: string }> {
    const { email } = parseOrThrow(RequestCodeBodySchema, body);
    const code = await this.codes.issue(email);
    await this.deps.mailer.send({
      to: email,
      subject: `Your Ephemera sign-in code: ${code}`,
      text: `Your sign-in code is ${code}\n\nIt works once, for 10 minutes. If you did not ask for it, ignore this e-mail.`,
    });
    return { success: true, message: `We sent a sign-in code to ${email}` };
  }

  /**
   * The spec's register (e-mail + username), with proof: the code mailed to the address. An existing account is
   * signed in (the spec's login/register page is one form); a new one is created. `previousToken`: the session the
   * browser held, revoked by the rotation.
   */
  async register(body: unknown, previousToken: string | null): Promise<SessionAnswer> {
    const input = parseOrThrow(RegisterBodySchema, body);
    await this.codes.consume(input.email, input.code);
    const account = await this.writes.mutex.run(
      `email:${input.email}`,
      async () =>
        (await this.accounts.byEmail(input.email)) ??
        this.writes.create({ email: input.email, username: input.username, googleId: null, picture: null }),
    );
    return claimOnRegister(this.deps.rooms, input, account, await this.openSession(account, previousToken));
  }

  /** Sign-in of an existing account by code (ours; the spec's form posts to register). */
  async login(body: unknown, previousToken: string | null): Promise<SessionAnswer> {
    const input = parseOrThrow(LoginBodySchema, body);
    await this.codes.consume(input.email, input.code);
    const account = await this.accounts.byEmail(input.email);
    if (!account) throw new DomainError('ACCOUNT_NOT_FOUND');
    return this.openSession(account, previousToken);
  }

  /** Google (google.ts verified the ID token): by Google id, else by e-mail only when Google verified it, else new. */
  signInWithGoogle(identity: VerifiedGoogleIdentity): Promise<AccountRow> {
    return accountOfGoogle(this.accounts, this.writes, identity);
  }

  /** Every sign-in ends here (code, register, Google): a suspended account gets no session (admin-accounts.ts). */
  async openSession(account: AccountRow, previousToken: string | null): Promise<SessionAnswer> {
    if (account.suspended) throw new DomainError('ACCOUNT_SUSPENDED');
    const token = await this.sessions.open(account.id, previousToken);
    return { success: true, token, user: presentAccount(account, this.superadmin) };
  }

  /** The account behind a bearer token: NO_AUTH_TOKEN without one, SESSION_INVALID for a revoked or unknown one. */
  /** the account of SUPERADMIN_EMAIL */
  isSuperadmin(account: AccountRow): boolean {
    return this.superadmin !== null && account.email.toLowerCase() === this.superadmin;
  }

  async accountOfToken(token: string | null): Promise<AccountRow> {
    if (!token) throw new DomainError('NO_AUTH_TOKEN');
    const id = await this.sessions.accountOf(token);
    const account = id ? await this.accounts.byId(id) : null;
    if (!account) throw new DomainError('SESSION_INVALID');
    if (account.suspended) throw new DomainError('ACCOUNT_SUSPENDED'); // its sessions were revoked; a racing one stops here
    return account;
  }

  /**
   * For the room service (claim, dashboard room creation, owner token): null when the token names no live session,
   * or a suspended account's (it cannot open its rooms from the dashboard). standing: what its subscription allows.
   */
  async resolveSession(token: string): Promise<SessionAccount | null> {
    const id = await this.sessions.accountOf(token);
    const account = id ? await this.accounts.byId(id) : null;
    return account && !account.suspended
      ? {
          accountId: account.id,
          email: account.email,
          username: account.username,
          tier: account.tier,
          standing: standingOf(account, this.now()),
        }
      : null;
  }

  /** For the room service (extending a room of the account): what its subscription still allows; unknown: active. */
  async standingOf(accountId: string): Promise<AccountStanding> {
    const account = await this.accounts.byId(accountId);
    return account ? standingOf(account, this.now()) : 'active';
  }

  async profile(account: AccountRow): Promise<ProfileAnswer> {
    const rooms = await this.deps.rooms.roomsOfAccount({ accountId: account.id });
    return {
      success: true,
      user: presentAccount(account, this.superadmin),
      rooms,
      limits: limitsOf(ENTITLEMENTS[account.tier as Tier] ?? ENTITLEMENTS.free),
    };
  }

  /** Mails the username; the answer never says whether the address has an account. */
  async recoverUsername(body: unknown): Promise<{ success: true; message: string }> {
    const { email } = parseOrThrow(RecoverUsernameBodySchema, body);
    const account = await this.accounts.byEmail(email);
    if (account) {
      await this.deps.mailer.send({
        to: email,
        subject: 'Your Ephemera username',
        text: `The username of your account is: ${account.username}`,
      });
    }
    return { success: true, message: 'If an account uses this address, we sent its username there.' };
  }

  async updateUsername(account: AccountRow, body: unknown) {
    const { username } = parseOrThrow(UpdateUsernameBodySchema, body);
    await this.writes.recordFor(account, 'account.username-changed', { accountId: account.id, username });
    return { success: true as const, user: presentAccount((await this.accounts.byId(account.id))!, this.superadmin) };
  }

  /** The auto-renewal choice; atProvider: the subscription payments/auto-renewal.ts changed to match it first. */
  async setAutoRenewal(
    account: AccountRow,
    body: unknown,
    atProvider?: { subscriptionId: string; cancelAtPeriodEnd: boolean },
  ) {
    const { autoRenewal } = parseOrThrow(AutoRenewalBodySchema, body);
    await this.writes.recordFor(account, 'account.auto-renewal-changed', {
      accountId: account.id,
      autoRenewal,
      ...atProvider,
    });
    return { success: true as const, autoRenewal };
  }

  async generateRoomToken(account: AccountRow, body: unknown) {
    const { roomName } = parseOrThrow(GenerateRoomTokenBodySchema, body);
    const t = await this.deps.rooms.ownerToken({ accountId: account.id, roomName });
    return { success: true as const, ...t, userToken: t.ownerToken };
  }

  /** Everything stored about the user (the spec's export): the account, its rooms, its sessions (no tokens). */
  async exportData(account: AccountRow) {
    const [rooms, sessions] = await Promise.all([
      this.deps.rooms.roomsOfAccount({ accountId: account.id }),
      this.sessions.list(account.id),
    ]);
    return { exportedAt: this.now().toISOString(), account: presentAccount(account, this.superadmin), rooms, sessions };
  }

  /**
   * Account deletion: the account's rooms are deleted (the room service destroys their keys), every session ends,
   * then the account's key is destroyed and the tombstone recorded; the projection removes the row. From then on
   * nothing personal of the account can be read from the log, a replay or a backup of it.
   */
  async deleteAccount(account: AccountRow, body: unknown): Promise<{ success: true; deletedRooms: string[] }> {
    parseOrThrow(DeleteAccountBodySchema, body ?? {});
    return { success: true, deletedRooms: await this.eraseAccount(account, userActor(account.id)) };
  }

  /** The deletion itself (the user's own, or the superadmin's: admin-accounts.ts, recorded by the system). */
  async eraseAccount(account: AccountRow, actor: Actor): Promise<string[]> {
    const { deleted } = await this.deps.rooms.deleteRoomsOfAccount({ accountId: account.id });
    await this.sessions.revokeAll(account.id);
    await this.writes.erase(account, actor);
    return deleted;
  }

  /** Payments and the superadmin: an account event decided from its current row (account-writes.ts). */
  recordSystemFor(
    accountId: string,
    decide: (current: AccountRow) => { type: DomainEventType; payload: unknown } | null,
  ): Promise<boolean> {
    return this.writes.recordSystemFor(accountId, decide);
  }
}
