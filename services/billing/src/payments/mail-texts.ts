/**
 * The texts of receipts and renewal reminders (plain text, like the sign-in mails). Reminders carry the renewal
 * sentences (docs/product/payments.md PAY6, from renewalStatus) and button label; receipts say what was bought, for
 * how much, when and
 * until when, and never anything about the card (Stripe holds it; we never see it).
 */
import {
  PLAN_PRICES,
  type PaidPlan,
  type ReceiptKind,
  type RenewalStatus,
  type ReminderStage,
  type Tier,
} from '@ephemera/proto';
import type { Mail } from '../mailer.ts';

/** What a receipt says; kept in billing.receipt_outbox until mailed. */
export interface Receipt {
  id: string;
  accountId: string;
  kind: ReceiptKind;
  /** null: the provider's record had no amount (the plan's list price is printed then) */
  amountCents: number | null;
  paidAt: string;
  /** subscription */
  plan?: PaidPlan | null;
  periodEnd?: string | null;
  renews?: boolean;
  /** room extension */
  roomName?: string | null;
  days?: number | null;
  newExpiry?: string | null;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const planName = (tier: Tier | null | undefined) => (tier && tier !== 'free' ? PLAN_PRICES[tier].name : 'paid');
const manageLine = (publicUrl: string | null, label: string) =>
  publicUrl
    ? `${label}: ${new URL('/subscription', publicUrl).href}`
    : `${label}: open Ephemera and go to your subscription page.`;

export function receiptMail(to: { email: string; username: string }, r: Receipt, publicUrl: string | null): Mail {
  const amount = r.amountCents ?? (r.kind === 'subscription' && r.plan ? PLAN_PRICES[r.plan].amountCents : null);
  const price = amount === null ? 'see your Stripe receipt' : `${dollars(amount)} (USD)`;
  const lines = [`Thank you for your payment, ${to.username}.`, '', `Receipt: ${r.id}`, `Date: ${mailDate(r.paidAt)}`];
  let subject: string;
  if (r.kind === 'subscription') {
    const name = planName(r.plan);
    subject = `Your Ephemera receipt: ${name} plan${amount === null ? '' : `, ${dollars(amount)}`}`;
    lines.push(`Item: Ephemera ${name} plan, monthly subscription`, `Amount: ${price}`);
    if (r.periodEnd) {
      lines.push(
        `Paid until: ${mailDate(r.periodEnd)}${r.renews ? ' (renews automatically each month until you cancel)' : ' (does not renew)'}`,
      );
    }
  } else {
    const room = r.roomName ? `the room "${r.roomName}"` : 'your room';
    subject = `Your Ephemera receipt: ${r.days ?? ''}-day extension of ${r.roomName ?? 'your room'}${amount === null ? '' : `, ${dollars(amount)}`}`;
    lines.push(`Item: room extension, ${r.days} days for ${room}`, `Amount: ${price}`);
    if (r.newExpiry) lines.push(`The room now expires: ${mailDate(r.newExpiry)}`);
  }
  lines.push('', 'Paid through Stripe. Ephemera never sees or stores your card details.');
  if (r.kind === 'subscription') lines.push(manageLine(publicUrl, 'Manage your subscription'));
  return { to: to.email, subject, text: lines.join('\n') };
}

/**
 * A renewal reminder. `status` is renewalStatus at the sweep's time; `tier` null for an account that already went
 * back to free (the expired notice).
 */
export function reminderMail(
  to: { email: string; username: string },
  stage: ReminderStage,
  status: RenewalStatus,
  tier: Tier | null,
  expiresAt: Date | null,
  publicUrl: string | null,
): Mail {
  const name = planName(tier);
  const n = status.daysUntilExpiry ?? 0;
  const subject = {
    reminder: `Your Ephemera ${name} plan expires in ${n} days`,
    warning: `Your Ephemera ${name} plan expires in ${n} day(s)`,
    urgent: `Your Ephemera ${name} plan expires in ${n} day(s): renew now`,
    grace: `Your Ephemera ${name} plan has expired: ${status.graceDaysLeft ?? 0} day(s) of grace left`,
    expired: 'Your Ephemera subscription has expired',
  }[stage];
  const lines = [`Hello ${to.username},`, '', status.message ?? 'Your subscription needs renewing.', ''];
  if (expiresAt && stage !== 'expired') lines.push(`Your ${name} plan is paid until ${mailDate(expiresAt)}.`);
  lines.push(manageLine(publicUrl, status.buttonLabel));
  if (stage === 'reminder' || stage === 'warning' || stage === 'urgent') {
    lines.push(
      '',
      'You get this reminder because your subscription is not set to renew automatically, or its last payment did not go through.',
    );
  }
  return { to: to.email, subject, text: lines.join('\n') };
}

/** "2025-03-01 14:05 UTC": dates in mails are in UTC, said so (the server does not know the reader's zone). */
export function mailDate(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
