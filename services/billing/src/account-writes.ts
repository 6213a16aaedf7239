/**
 * Billing's writes of account events, each under the account's lock and through platform's recorder (durable in the
 * log, then applied to billing.accounts): a new account, a member's own change, the system's change decided from
 * the account's current row (payments, the superadmin), and the deletion (the account's key first: docs/crypto.md).
 */
import {
  DomainError,
  parsePayload,
  type Actor,
  type AnyEventEnvelope,
  type DomainEventPayload,
  type DomainEventType,
} from '@ephemera/proto';
import {
  KeyedMutex,
  createRecorder,
  makeEvent,
  newId,
  systemActor,
  userActor,
  type EventLog,
  type Logger,
  type Pool,
  type Projector,
  type Recorder,
  type RoomKeyStore,
  type RoomKeyring,
} from '@ephemera/platform';
import type { AccountRow, AccountsRepository } from './accounts-repository.ts';

export interface AccountWritesDeps {
  pool: Pool;
  log: EventLog;
  logger: Logger;
  accounts: AccountsRepository;
  /** one key per account: created before account.registered, destroyed before account.deleted */
  accountKeys: RoomKeyStore;
  keyring: RoomKeyring;
  projector: Projector;
  now: () => Date;
}

export class AccountWrites {
  /** account:{id} for an account's events, email:{address} for a sign-in that may create one */
  readonly mutex = new KeyedMutex();
  private readonly recorder: Recorder;

  constructor(private readonly deps: AccountWritesDeps) {
    this.recorder = createRecorder({
      log: deps.log,
      readModel: { pool: deps.pool, schema: 'billing', project: deps.projector },
      logger: deps.logger,
    });
  }

  /** account.registered under a new key of its own; the caller holds the address's lock. */
  async create(input: {
    email: string;
    username: string;
    googleId: string | null;
    picture: string | null;
  }): Promise<AccountRow> {
    const accountId = `acc_${newId(20)}`;
    await this.deps.accountKeys.create(accountId);
    await this.recorder.record([
      makeEvent(
        'account.registered',
        accountId,
        1,
        {
          accountId,
          email: input.email,
          username: input.username,
          tier: 'free',
          googleId: input.googleId,
          picture: input.picture,
          registeredAt: this.deps.now().toISOString(),
        },
        systemActor,
      ),
    ]);
    this.deps.logger.info({ accountId }, 'account registered');
    return (await this.deps.accounts.byId(accountId))!;
  }

  /** The account's own change (SESSION_INVALID when it was deleted meanwhile). */
  recordFor<T extends DomainEventType>(account: AccountRow, type: T, payload: DomainEventPayload<T>): Promise<void> {
    return this.mutex.run(`account:${account.id}`, async () => {
      const current = await this.deps.accounts.byId(account.id);
      if (!current) throw new DomainError('SESSION_INVALID');
      parsePayload(type, payload);
      await this.recorder.record([
        makeEvent(type, account.id, current.lastSeq + 1, payload, userActor(account.id)) as AnyEventEnvelope,
      ]);
    });
  }

  /**
   * Payments and the superadmin: decide an account event from the account's current row under its lock (null:
   * nothing to record, e.g. the provider's state is already what the row says), then record it as the system. True
   * when one was recorded.
   */
  recordSystemFor(
    accountId: string,
    decide: (current: AccountRow) => { type: DomainEventType; payload: unknown } | null,
  ): Promise<boolean> {
    return this.mutex.run(`account:${accountId}`, async () => {
      const current = await this.deps.accounts.byId(accountId);
      if (!current) return false; // deleted meanwhile: nothing of it is kept
      const decided = decide(current);
      if (!decided) return false;
      const payload = parsePayload(decided.type, decided.payload);
      await this.recorder.record([
        makeEvent(decided.type, accountId, current.lastSeq + 1, payload as never, systemActor) as AnyEventEnvelope,
      ]);
      return true;
    });
  }

  /** The account's key is destroyed (and forgotten here), then account.deleted is recorded. */
  erase(account: AccountRow, actor: Actor): Promise<void> {
    return this.mutex.run(`account:${account.id}`, async () => {
      this.deps.keyring.forget(account.id);
      await this.deps.accountKeys.destroy(account.id);
      const current = await this.deps.accounts.byId(account.id);
      await this.recorder.record([
        makeEvent(
          'account.deleted',
          account.id,
          (current?.lastSeq ?? account.lastSeq) + 1,
          { accountId: account.id, deletedAt: this.deps.now().toISOString() },
          actor,
        ),
      ]);
    });
  }
}
