/**
 * What the superadmin suites are given: harness.ts starts the product and hands each suite an AdminTarget; the suites
 * import the types from here, not from harness.ts, which imports them.
 */
import type { LimitConfig } from '@ephemera/platform';
import type { Mailpit } from '../helpers/mailpit.ts';

/** What the product start gives the suites (the mode's own extras are optional). */
export interface AdminProduct {
  url: string;
  urlB?: string;
  advanceClock(ms: number): void;
  stop(): Promise<void>;
  /** the product's database (every service's schema) and the room service's key directory, for the backup suite */
  data: {
    query<R extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
    roomKeyDir: string;
  };
}
export interface AdminEnv {
  smtpUrl: string;
  superadminEmail: string;
  rateLimits: LimitConfig;
}

export interface AdminTarget extends AdminProduct {
  mail: Mailpit;
  superadminEmail: string;
  /** the superadmin's session token */
  adminToken: string;
  /** an ordinary signed-in account (free) */
  user: { email: string; token: string };
  /** sign in another account by e-mail code (registers it) */
  signIn(email?: string, username?: string): Promise<{ email: string; token: string }>;
}
