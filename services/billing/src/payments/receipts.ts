/**
 * Receipts (docs/product/payments.md PAY10). When a payment outcome is newly recorded (webhooks.ts: a subscription
 * period paid, a room
 * extension applied) its receipt goes into billing.receipt_outbox and a send starts at once, without the payment
 * handling waiting for it: a slow or failing SMTP server neither delays nor fails the webhook. Exactly once:
 *  - the outcome is recorded once per payment (provider event ids once, the account's lock, the extension order row),
 *    and only that recording queues the receipt (the receipt id, one per payment, is the outbox's primary key);
 *  - a sender leases the row before mailing, so a send started by the webhook and one by the sweep never overlap;
 *  - after the SMTP server accepts it, account.receipt-mailed is recorded (billing.mailed_notices) and the row goes.
 * A failed send is retried later: the row gets a next attempt (1, 2, 4... minutes, at most an hour) that the reminder
 * sweep picks up; after three days it is given up, logged as an error. A crash between the SMTP server's acceptance
 * and the record can mail one receipt twice when the lease runs out (at least once, never lost silently). The
 * outbox's statements are in repository.ts.
 */
import type { Logger, Pool } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import type { Mailer } from '../mailer.ts';
import { receiptMail, type Receipt } from './mail-texts.ts';
import { deferReceipt, dropReceipt, dueReceipts, leaseReceipt, queueReceipt } from './repository.ts';

const LEASE_MS = 2 * 60_000;
/** SMTP sends started by issue() at once: a burst of webhooks must not open hundreds of connections to the provider */
const MAX_SENDS = 8;
const GIVE_UP_MS = 3 * 86_400_000;
const backoffMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

export interface ReceiptDeps {
  pool: Pool;
  billing: BillingService;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  /** PUBLIC_URL: the subscription page's address in the mail; absent: the mail says where to find it */
  publicUrl: string | null;
}

export type DeliveryResult = 'mailed' | 'busy' | 'failed' | 'dropped';

export class Receipts {
  private readonly inFlight = new Set<Promise<unknown>>();
  private sending = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly deps: ReceiptDeps) {}

  /** A payment outcome was just recorded: queue its receipt and start mailing it, without waiting. */
  issue(receipt: Receipt): void {
    const send = (async () => {
      if (!(await this.enqueue(receipt))) return;
      // Queued durably first: if this process stops while waiting for a slot, the sweep mails it.
      if (this.sending < MAX_SENDS) this.sending++;
      else await new Promise<void>((resolve) => this.waiting.push(resolve)); // a finishing send hands its slot over
      try {
        await this.deliver(receipt.id);
      } finally {
        const next = this.waiting.shift();
        if (next) next();
        else this.sending--;
      }
    })().catch((err) =>
      this.deps.logger.warn(
        { err, receiptId: receipt.id },
        'receipt not queued or sent now; the sweep retries queued ones',
      ),
    );
    this.inFlight.add(send);
    void send.finally(() => this.inFlight.delete(send));
  }

  /** Resolves when no send started by issue() is still running (tests, and stop()). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** True when queued now (false: already queued, or already mailed). */
  async enqueue(r: Receipt): Promise<boolean> {
    const at = this.deps.now();
    return queueReceipt(this.deps.pool, r, at);
  }

  /** Mails one queued receipt, unless it is not due or another sender holds it. */
  async deliver(receiptId: string, now: Date = this.deps.now()): Promise<DeliveryResult> {
    const { pool, logger } = this.deps;
    const row = await leaseReceipt(pool, receiptId, now, new Date(now.getTime() + LEASE_MS));
    if (!row) return 'busy';
    const receipt = row.receipt;
    const drop = () => dropReceipt(pool, receiptId);
    const account = await this.deps.billing.accounts.byId(receipt.accountId);
    if (!account || row.mailed) {
      await drop(); // the account was deleted meanwhile, or someone already mailed it
      return 'dropped';
    }
    try {
      await this.deps.mailer.send(receiptMail(account, receipt, this.deps.publicUrl));
    } catch (err) {
      if (now.getTime() - row.created_at.getTime() > GIVE_UP_MS) {
        await drop();
        logger.error(
          { err, receiptId, attempts: row.attempts },
          'receipt given up: the SMTP server refused it for three days',
        );
        return 'dropped';
      }
      const next = new Date(now.getTime() + backoffMs(row.attempts));
      await deferReceipt(pool, receiptId, next, String((err as Error).message ?? err).slice(0, 500));
      logger.warn(
        { err, receiptId, attempts: row.attempts, nextAttemptAt: next.toISOString() },
        'receipt not mailed; retried later',
      );
      return 'failed';
    }
    try {
      await this.deps.billing.recordSystemFor(receipt.accountId, () => ({
        type: 'account.receipt-mailed',
        payload: {
          accountId: receipt.accountId,
          receiptId,
          kind: receipt.kind,
          amountCents: receipt.amountCents,
          mailedAt: this.deps.now().toISOString(),
        },
      }));
    } catch (err) {
      // The mail went out: removing the row below keeps it from going out again; only the record is missing.
      logger.error({ err, receiptId }, 'receipt mailed but not recorded');
    }
    await drop();
    return 'mailed';
  }

  /** The sweep's part: every queued receipt that is due (failed sends, and any a crash left behind). */
  async retryDue(now: Date = this.deps.now()): Promise<{ mailed: number; failed: number }> {
    let mailed = 0;
    let failed = 0;
    for (const receiptId of await dueReceipts(this.deps.pool, now)) {
      const result = await this.deliver(receiptId, now);
      if (result === 'mailed') mailed++;
      else if (result === 'failed') failed++;
    }
    return { mailed, failed };
  }
}
