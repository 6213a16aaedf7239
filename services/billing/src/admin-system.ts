/**
 * What the superadmin's System, Feedback and Settings tabs need of billing (AdminBillingSystemApi;
 * docs/product/admin.md ADM9-ADM12).
 * Inputs are parsed here: in distributed mode they arrive over internal-rpc as plain JSON.
 *  - feedback: the contact messages (contact.ts), their counts, status and removal;
 *  - inactive accounts: no sign-in and no session use (billing.account_activity, credentials.ts) and no sign-up for
 *    the grace period plus the configured days; never the superadmin's;
 *  - expired credentials (the Database Cleanup quick action) and failed sign-ins (the security figures).
 */
import { z } from 'zod';
import {
  ContactStatusSchema,
  DomainError,
  type AdminBillingSystemApi,
  type ContactCounts,
  type ContactMessageView,
  type ContactStatus,
  type EligibleUser,
} from '@ephemera/proto';
import { inTransaction, parseOrThrow, type Pool } from '@ephemera/platform';
import type { BillingService } from './billing-service.ts';
import { countSignInFailuresSince, deleteExpiredCredentials } from './credentials-repository.ts';

const DAY_MS = 86_400_000;
/** Stripe retries an undelivered event for up to three days: an id older than that cannot come again */
const PROVIDER_RETRY_WINDOW_MS = 3 * DAY_MS;
/** failed sign-ins are kept for the System tab's figures this long */
const SIGN_IN_FAILURES_KEPT_MS = 90 * DAY_MS;

const Id = z.object({ id: z.string().min(1).max(100) });
const StatusInput = Id.extend({ status: ContactStatusSchema });
const InactiveInput = z.object({
  graceDays: z.number().int().min(0).max(365),
  days: z.number().int().min(1).max(1000),
});
const ListInput = z.object({ limit: z.number().int().min(1).max(500).optional() });
const SinceInput = z.object({ since: z.iso.datetime({ offset: true }) });

export interface AdminBillingSystemOptions {
  now?: () => Date;
  superadminEmail?: string | null;
}

export class AdminBillingSystem implements AdminBillingSystemApi {
  private readonly now: () => Date;
  private readonly superadmin: string | null;

  constructor(
    private readonly billing: BillingService,
    private readonly pool: Pool,
    options: AdminBillingSystemOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.superadmin = options.superadminEmail?.trim().toLowerCase() || null;
  }

  async feedbackList(input: { limit?: number }): Promise<{ messages: ContactMessageView[]; counts: ContactCounts }> {
    const { limit } = parseOrThrow(ListInput, input ?? {});
    const [messages, counts] = await Promise.all([
      this.billing.contact.list({ limit: limit ?? 500 }),
      this.billing.contact.counts(),
    ]);
    return { messages, counts };
  }

  async feedbackSetStatus(input: {
    id: string;
    status: ContactStatus;
  }): Promise<{ id: string; status: ContactStatus }> {
    const { id, status } = parseOrThrow(StatusInput, input);
    const changed = await feedbackNamed(() => this.billing.contact.setStatus(id, status));
    return { id: changed.id, status: changed.status };
  }

  async feedbackDelete(input: { id: string }): Promise<{ id: string }> {
    const { id } = parseOrThrow(Id, input);
    await feedbackNamed(() => this.billing.contact.remove(id));
    return { id };
  }

  /** Accounts last active (signed up, signed in or used a session) before now - (graceDays + days), oldest first. */
  async inactiveAccounts(input: {
    graceDays: number;
    days: number;
  }): Promise<Array<EligibleUser & { accountId: string }>> {
    const { graceDays, days } = parseOrThrow(InactiveInput, input);
    const cutoff = new Date(this.now().getTime() - (graceDays + days) * DAY_MS);
    const rows = await this.billing.accounts.inactiveSince(cutoff);
    return rows
      .filter((r) => r.email !== this.superadmin)
      .map((r) => ({
        accountId: r.id,
        email: r.email,
        subscriptionTier: r.tier,
        daysSinceEligible: Math.floor((cutoff.getTime() - r.lastActive.getTime()) / DAY_MS),
      }));
  }

  /** Credentials whose time is over; answers how many rows went. */
  async cleanupExpired(_input: Record<string, never>): Promise<{ removed: number }> {
    const now = this.now();
    const removed = await inTransaction(this.pool, (c) =>
      deleteExpiredCredentials(c, {
        now,
        providerEventsBefore: new Date(now.getTime() - PROVIDER_RETRY_WINDOW_MS),
        failuresBefore: new Date(now.getTime() - SIGN_IN_FAILURES_KEPT_MS),
      }),
    );
    return { removed };
  }

  async failedSignIns(input: { since: string }): Promise<{ count: number }> {
    const { since } = parseOrThrow(SinceInput, input);
    return { count: await countSignInFailuresSince(this.pool, since) };
  }
}

/** contact.ts says MESSAGE_NOT_FOUND (its own word); the admin API's is FEEDBACK_NOT_FOUND */
async function feedbackNamed<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DomainError && err.code === 'MESSAGE_NOT_FOUND') throw new DomainError('FEEDBACK_NOT_FOUND');
    throw err;
  }
}
