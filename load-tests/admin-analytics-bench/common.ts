/**
 * What the admin-analytics bench's parts share: the settings (ADMIN_BENCH_*), the logger, percentiles in ms, and the
 * admin projection with an in-memory keyring for the accounts' fields.
 */
import { RoomKey, RoomKeyring, createLogger } from '@ephemera/platform';
import { adminProjector } from '../../services/admin-analytics/src/projection.ts';
import { AccountFields } from '../../services/admin-analytics/src/account-fields.ts';
import { percentileSorted } from '../lib/stats.ts';

/**
 * The directory seals accounts' e-mails and usernames under each account's key: the bench's accounts get keys in
 * memory (billing would have created each one before its account.registered), and so does the address lookup key.
 */
export const accountKeyring = new RoomKeyring(async (id) => RoomKey.generate(id));
export const projectAdmin = adminProjector(new AccountFields(accountKeyring));

export const RATE = Number(process.env.ADMIN_BENCH_RATE ?? 400);
export const WINDOW_S = Number(process.env.ADMIN_BENCH_WINDOW_S ?? 20);
export const EVENTS = Number(process.env.ADMIN_BENCH_EVENTS ?? 1_000_000);
export const ROUNDS = Number(process.env.ADMIN_BENCH_ROUNDS ?? 100);
export const SKIP = process.env.ADMIN_BENCH_SKIP ?? ''; // any of 'lag', 'loads', 'backup'
export const logger = createLogger('bench', 'warn');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const pct = (xs: number[], p: number) =>
  percentileSorted(
    [...xs].sort((a, b) => a - b),
    p,
  );
export const ms = (x: number) => `${x.toFixed(1)} ms`;
