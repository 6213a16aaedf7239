/**
 * The Features page's plan comparison, read from the entitlement table (proto/src/tiers.ts) and the plan prices
 * (proto/src/plans.ts): the page never states a limit of its own, so it cannot drift from what the server enforces.
 */
import { ENTITLEMENTS, PLAN_PRICES, type Entitlements, type Tier } from '@ephemera/proto/client';
import { t, type MessageId } from '../i18n/i18n.ts';

export const PLAN_TIERS: readonly Tier[] = ['free', 'pro', 'business'];
/** The plans' names in the active language (Pro and Business are names in every language). */
export const planName = (tier: Tier): string => (tier === 'free' ? t('public.plans.free') : PLAN_PRICES[tier].name);

/** A cell: text, or a yes/no that the table shows as a mark with a text alternative. */
export type PlanCell = string | boolean;
export interface ComparisonRow {
  id: string;
  label: MessageId;
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

/** a lifetime or retention in the active language: '24 hours', '7 days', '1 hour'; null is the table's "no end" */
export function formatDuration(ms: number | null, never: string): string {
  if (ms === null) return never;
  if (ms % DAY === 0 && ms / DAY >= 2) return t('public.plans.days', { count: ms / DAY });
  return t('public.plans.hours', { count: Math.round(ms / HOUR) });
}

const count = (n: number | null) => (n === null ? t('public.plans.unlimited') : String(n));

function themes(e: Entitlements): string {
  const named = e.themes.filter((theme) => theme !== 'custom').length;
  return t(e.themes.includes('custom') ? 'public.plans.themesCustom' : 'public.plans.themes', { count: named });
}

const ROWS: { id: string; label: MessageId; cell: (e: Entitlements, tier: Tier) => PlanCell }[] = [
  {
    id: 'price',
    label: 'public.plans.row.price',
    cell: (_e, tier) => {
      const p = planPrice(tier);
      return p.per ? t('public.plans.perMonth', { amount: p.amount }) : p.amount;
    },
  },
  { id: 'rooms', label: 'public.plans.row.rooms', cell: (e) => count(e.roomsPerAccount) },
  { id: 'users', label: 'public.plans.row.users', cell: (e) => count(e.usersPerRoom) },
  {
    id: 'lifetime',
    label: 'public.plans.row.lifetime',
    cell: (e) => formatDuration(e.lifetimeMs, t('public.plans.permanent')),
  },
  { id: 'custom-cap', label: 'public.plans.row.customCap', cell: (e) => e.customMaxUsers },
  { id: 'extension', label: 'public.plans.row.extension', cell: (e) => e.freeExtension },
  { id: 'file-size', label: 'public.plans.row.fileSize', cell: (e) => `${e.fileSizeMb} MB` },
  {
    id: 'file-retention',
    label: 'public.plans.row.fileRetention',
    cell: (e) => formatDuration(e.fileRetentionMs, t('public.plans.asLongAsRoom')),
  },
  { id: 'themes', label: 'public.plans.row.themes', cell: themes },
  { id: 'voice', label: 'public.plans.row.voice', cell: (e) => e.voiceCalls },
  { id: 'video', label: 'public.plans.row.video', cell: (e) => e.videoCalls },
  { id: 'screen', label: 'public.plans.row.screen', cell: (e) => e.screenSharing },
  { id: 'branding', label: 'public.plans.row.branding', cell: (e) => e.customBranding },
];

/** The comparison table's rows, in the order the page shows them, in the active language (labels are keys). */
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
