/**
 * The Features page's plan comparison, read from the entitlement table (proto/src/tiers.ts) and the plan prices
 * (proto/src/plans.ts): the page never states a limit of its own, so it cannot drift from what the server enforces.
 */
import { ENTITLEMENTS, PLAN_PRICES, type Entitlements, type Tier } from '@ephemera/proto/client';

export const PLAN_TIERS: readonly Tier[] = ['free', 'pro', 'business'];
export const PLAN_NAMES: { readonly [T in Tier]: string } = {
  free: 'Free',
  pro: PLAN_PRICES.pro.name,
  business: PLAN_PRICES.business.name,
};

/** A cell: text, or a yes/no that the table shows as a mark with a text alternative. */
export type PlanCell = string | boolean;
export interface ComparisonRow {
  id: string;
  label: string;
  values: { readonly [T in Tier]: PlanCell };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** '$0', '$9', '$19' (whole dollars without cents, else two decimals) */
export function formatDollars(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

/** the monthly price of a tier: free costs nothing */
export function planPrice(tier: Tier): { amount: string; per: string | null } {
  if (tier === 'free') return { amount: formatDollars(0), per: null };
  return { amount: formatDollars(PLAN_PRICES[tier].amountCents), per: PLAN_PRICES[tier].interval };
}

/** a lifetime or retention: '24 hours', '7 days', '1 day'; null is the table's "no end" */
export function formatDuration(ms: number | null, never: string): string {
  if (ms === null) return never;
  if (ms % DAY === 0 && ms / DAY >= 2) return `${ms / DAY} days`;
  const hours = Math.round(ms / HOUR);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

const count = (n: number | null, unlimited = 'Unlimited') => (n === null ? unlimited : String(n));

function themes(e: Entitlements): string {
  const named = e.themes.filter((t) => t !== 'custom').length;
  return e.themes.includes('custom') ? `${named} themes + custom` : `${named} themes`;
}

const ROWS: { id: string; label: string; cell: (e: Entitlements, tier: Tier) => PlanCell }[] = [
  {
    id: 'price',
    label: 'Price',
    cell: (_e, tier) => {
      const p = planPrice(tier);
      return p.per ? `${p.amount}/${p.per}` : p.amount;
    },
  },
  { id: 'rooms', label: 'Rooms per account', cell: (e) => count(e.roomsPerAccount) },
  { id: 'users', label: 'People per room', cell: (e) => count(e.usersPerRoom) },
  { id: 'lifetime', label: 'Room lifetime', cell: (e) => formatDuration(e.lifetimeMs, 'Permanent') },
  { id: 'custom-cap', label: 'Set your own member limit', cell: (e) => e.customMaxUsers },
  { id: 'extension', label: 'Free room extensions', cell: (e) => e.freeExtension },
  { id: 'file-size', label: 'Largest file', cell: (e) => `${e.fileSizeMb} MB` },
  {
    id: 'file-retention',
    label: 'Files kept for',
    cell: (e) => formatDuration(e.fileRetentionMs, 'As long as the room'),
  },
  { id: 'themes', label: 'Themes', cell: themes },
  { id: 'voice', label: 'Voice calls', cell: (e) => e.voiceCalls },
  { id: 'video', label: 'Video calls', cell: (e) => e.videoCalls },
  { id: 'screen', label: 'Screen sharing', cell: (e) => e.screenSharing },
  { id: 'branding', label: 'Custom branding', cell: (e) => e.customBranding },
];

/** The comparison table's rows, in the order the page shows them. */
export function planComparison(table: { readonly [T in Tier]: Entitlements } = ENTITLEMENTS): ComparisonRow[] {
  return ROWS.map((r) => ({
    id: r.id,
    label: r.label,
    values: {
      free: r.cell(table.free, 'free'),
      pro: r.cell(table.pro, 'pro'),
      business: r.cell(table.business, 'business'),
    },
  }));
}
