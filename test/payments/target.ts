/**
 * What the payment suites are given: harness.ts starts the product and hands each suite a PaymentTarget; the suites
 * import from here, not from harness.ts, which imports them.
 */
import { randomBytes } from 'node:crypto';
import type { PaymentsOptions, SweepResult } from '@ephemera/billing';
import type { LimitConfig } from '@ephemera/platform';
import type { Mailpit } from '../helpers/mailpit.ts';
import type { AccountTarget } from '../accounts/account-clients.ts';
import type { ProviderState } from './provider-state.ts';

/** the webhook signing secret the product is started with (harness.ts) and the suites sign with */
export const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;

export interface PaymentEnv {
  smtpUrl: string;
  superadminEmail: string;
  rateLimits: LimitConfig;
  payments: PaymentsOptions;
}
export interface PaymentProduct {
  url: string;
  advanceClock(ms: number): void;
  stop(): Promise<void>;
  /** the address return links must be on: PUBLIC_URL, or embedded mode's own address without it */
  siteUrl: string;
}

export interface PaymentTarget {
  url: string;
  siteUrl: string;
  mail: Mailpit;
  state: ProviderState;
  stripeMockUrl: string;
  /** the product's superadmin: signing in with it reads the admin report */
  superadminEmail: string;
  /** the account helpers' view (register, mailedCode use url and mail) */
  accounts: AccountTarget;
  advanceClock(ms: number): void;
  /** the product's renewal-reminder sweep (it also retries failed receipts), run at `at` */
  sweepReminders(at: Date): Promise<SweepResult>;
  /** resolves when no receipt the product started mailing is still on its way */
  receiptsSettled(): Promise<void>;
  /** a Stripe event envelope around `object`, as Stripe posts it */
  event(type: string, object: Record<string, unknown>, opts?: { id?: string; created?: number }): string;
  /** POST the body to the webhook, signed (or with the header given) */
  deliver(
    body: string,
    opts?: { secret?: string; timestamp?: number; header?: string | null },
  ): Promise<{ status: number; body: any }>;
}
