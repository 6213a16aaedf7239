/** A guest's payment choice kept while they sign in first (split from payments.ts; pendingExtension: roomPrefs.ts). */
import type { PaidPlan } from '@ephemera/proto/client';
import { PENDING_EXTENSION_KEY, readPendingExtension, type PendingExtension } from './roomPrefs.ts';
import type { KeyValueStore } from './storage.ts';
import { parsePlan } from './paymentPlans.ts';

// ---- pendingUpgrade {plan, returnUrl}: a guest's plan choice, kept while they sign in ----
export const PENDING_UPGRADE_KEY = 'pendingUpgrade';
export interface PendingUpgrade {
  plan: PaidPlan;
  returnUrl: string;
}

export function defaultStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function savePendingUpgrade(p: PendingUpgrade, store = defaultStore()): void {
  try {
    store?.setItem(PENDING_UPGRADE_KEY, JSON.stringify(p));
  } catch {
    /* storage disabled */
  }
}
export function readPendingUpgrade(store = defaultStore()): PendingUpgrade | null {
  try {
    const raw = store?.getItem(PENDING_UPGRADE_KEY);
    const v = raw ? (JSON.parse(raw) as Partial<PendingUpgrade>) : null;
    const plan = parsePlan(v?.plan);
    return plan ? { plan, returnUrl: typeof v?.returnUrl === 'string' ? v.returnUrl : '/upgrade' } : null;
  } catch {
    return null;
  }
}
export function clearPendingPayments(store = defaultStore()): void {
  try {
    store?.removeItem(PENDING_UPGRADE_KEY);
    store?.removeItem(PENDING_EXTENSION_KEY);
  } catch {
    /* ignore */
  }
}

export type PendingPayment =
  { kind: 'upgrade'; upgrade: PendingUpgrade } | { kind: 'extension'; extension: PendingExtension };
/** What a guest chose before signing in (docs/product/accounts.md A9): an extension first, else an upgrade. */
export function pendingPaymentOf(store = defaultStore()): PendingPayment | null {
  const extension = readPendingExtension(store);
  if (extension) return { kind: 'extension', extension };
  const upgrade = readPendingUpgrade(store);
  return upgrade ? { kind: 'upgrade', upgrade } : null;
}
