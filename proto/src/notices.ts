/**
 * What billing mails an account about its payments: receipts and renewal reminders. Each mail is recorded
 * as an event on the billing topic (aggregate: the account; sealed under the account's key like every account event)
 * once the SMTP server accepted it, and projected into billing.mailed_notices: a restart or a replay of the log knows
 * what was sent and does not send it again. Neither payload holds the address, the room name or any card data.
 */
import { z } from 'zod';

export const RECEIPT_KINDS = ['subscription', 'room_extension'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

/**
 * The renewal-reminder stages: renewalStatus's urgencies (proto/src/payments.ts), with urgent split in two because
 * "1 day left" and "in the grace period" are different news (each is mailed once per billing period).
 */
export const REMINDER_STAGES = ['reminder', 'warning', 'urgent', 'grace', 'expired'] as const;
export type ReminderStage = (typeof REMINDER_STAGES)[number];

/** a receipt for one payment (a subscription's period paid, a room extension paid) was mailed */
export const ReceiptMailedSchema = z.object({
  accountId: z.string(),
  /** one per payment: rcpt_sub_{subscription}_{tier}_{period end} or rcpt_ext_{checkout session} */
  receiptId: z.string().min(1).max(300),
  kind: z.enum(RECEIPT_KINDS),
  amountCents: z.number().int().nullable(),
  mailedAt: z.string(),
});

/** a renewal reminder of one stage for the billing period ending at periodEnd was mailed */
export const RenewalReminderMailedSchema = z.object({
  accountId: z.string(),
  stage: z.enum(REMINDER_STAGES),
  /** the expiry the reminder was about (null: a paid account without one whose payment is not active) */
  periodEnd: z.string().nullable(),
  daysUntilExpiry: z.number().int().nullable(),
  mailedAt: z.string(),
});

/** The key of a reminder in billing.mailed_notices: one per stage and billing period. */
export const reminderKey = (stage: ReminderStage, periodEnd: string | null): string =>
  `${stage}:${periodEnd ?? 'open'}`;
