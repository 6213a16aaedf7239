/**
 * Accounts (docs/product/accounts.md; docs/protocol.md "Accounts (billing)"): the billing service owns them. Request
 * bodies,
 * answers, the account events' payloads and the internal calls between billing and the room service.
 * Sign-in proves control of the e-mail (a one-time code) or of the Google account (OIDC): no body that merely names
 * an e-mail or a Google id signs anyone in (docs/product/security.md S8).
 */
import { z } from 'zod';
import { TierSchema, hasInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE } from './models.ts';
import type { Tier } from './limits.ts';
import type { Entitlements } from './tiers.ts';

export const EMAIL_MAX = 254;
/** one-time sign-in codes: 6 digits, valid for 10 minutes, used once, 5 wrong tries burn it */
export const SIGN_IN_CODE = { digits: 6, ttlMs: 10 * 60_000, maxAttempts: 5 } as const;
/** sessions last 30 days unless revoked (sign-out, sign-out everywhere, account deletion) */
export const SESSION_TTL_MS = 30 * 24 * 3600_000;
import { ACCOUNT_USERNAME_MAX, DELETE_CONFIRMATION } from './account-paths.ts';

export const PAYMENT_STATUSES = ['active', 'past_due', 'cancelled', 'trial'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

const trimmed = z.string().transform((s) => s.trim());
export const EmailSchema = z
  .string({ error: 'Please enter your email' })
  .trim()
  .toLowerCase()
  .min(1, 'Please enter your email')
  .max(EMAIL_MAX, 'Please enter a valid email address')
  .pipe(z.email('Please enter a valid email address'));
export const AccountUsernameSchema = z
  .string()
  .refine((s) => !hasInvisibleCharacters(s), INVISIBLE_CHARACTERS_MESSAGE)
  .pipe(trimmed)
  .pipe(
    z
      .string()
      .min(1, 'Please enter a new username')
      .max(ACCOUNT_USERNAME_MAX, `Username must be ${ACCOUNT_USERNAME_MAX} characters or less`),
  );
export const SignInCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail');

/** POST /api/auth/request-code (ours): mails a one-time code; answers the same whether or not an account exists. */
export const RequestCodeBodySchema = z.object({ email: EmailSchema });
/**
 * POST /api/auth/register (the spec's, plus the code): signs in the address's account or creates it. A guest who
 * created a room claims it with claimWorkspaceId and that room's owner token (claimUserToken): the room id alone
 * proves nothing.
 */
export const RegisterBodySchema = z.object({
  email: EmailSchema,
  username: AccountUsernameSchema,
  code: SignInCodeSchema,
  claimWorkspaceId: z.string().min(1).max(64).optional(),
  claimUserToken: z.string().min(16).max(200).optional(),
});
/** POST /api/auth/login (ours): an existing account, by code. */
export const LoginBodySchema = z.object({
  email: EmailSchema,
  code: SignInCodeSchema,
  username: z.string().max(100).optional(),
});
export const RecoverUsernameBodySchema = z.object({ email: EmailSchema });
export const UpdateUsernameBodySchema = z.object({ username: AccountUsernameSchema });
export const AutoRenewalBodySchema = z.object({ autoRenewal: z.boolean() });
export const DeleteAccountBodySchema = z.object({
  confirmation: z.literal(DELETE_CONFIRMATION, 'Please type DELETE to confirm'),
});
export const GenerateRoomTokenBodySchema = z.object({ roomName: z.string().trim().min(1).max(64) });
/** POST /api/workspaces/{id}/claim-ownership (bearer: the account): the guest owner's room token proves the claim. */
export const ClaimOwnershipBodySchema = z.object({ userToken: z.string().min(16).max(200) });

/** The account user (docs/product/accounts.md A7). */
export interface AccountUser {
  id: string;
  email: string;
  username: string;
  subscriptionTier: Tier;
  paymentStatus: PaymentStatus;
  /** absent/null: never */
  subscriptionExpiresAt: string | null;
  autoRenewal: boolean;
  googleId: string | null;
  picture: string | null;
  createdAt: string;
  /** the account named by SUPERADMIN_EMAIL: the dashboard shows the admin-area button (the server checks again) */
  isSuperadmin: boolean;
}
/** The account's limits object (docs/product/accounts.md A7): -1 = permanent / unlimited. */
export interface AccountLimits {
  roomExpiryHours: number;
  maxUsersPerRoom: number;
  themesAvailable: string[];
}
export type DashboardRole = 'owner' | 'admin' | 'other';
export interface DashboardRoom {
  id: string;
  roomId: string;
  workspaceId: string;
  role: DashboardRole;
  createdAt: string;
  expiresAt: string | null;
  tier: Tier;
}
export interface ProfileAnswer {
  success: true;
  user: AccountUser;
  rooms: DashboardRoom[];
  limits: AccountLimits;
}
export interface SessionAnswer {
  success: true;
  token: string;
  user: AccountUser;
  newUserToken?: string;
  workspaceId?: string;
  claimError?: string;
}
export interface ClaimAnswer {
  success: true;
  newUserToken: string;
  workspaceId: string;
  roomName: string;
  message: string;
}

export function limitsOf(e: Entitlements): AccountLimits {
  return {
    roomExpiryHours: e.lifetimeMs === null ? -1 : Math.round(e.lifetimeMs / 3600_000),
    maxUsersPerRoom: e.usersPerRoom === null ? -1 : e.usersPerRoom,
    themesAvailable: [...e.themes],
  };
}

// ---- account events (topic billing; aggregate and partition key: the account id) ----
// Every payload but account.deleted is sealed under the account's own key (docs/crypto.md), destroyed when the
// account is deleted: the e-mail and names in the log become unreadable with it.
export const AccountRegisteredSchema = z.object({
  accountId: z.string(),
  email: z.string(),
  username: z.string(),
  tier: TierSchema,
  googleId: z.string().nullable(),
  picture: z.string().nullable(),
  registeredAt: z.string(),
});
export const AccountUsernameChangedSchema = z.object({ accountId: z.string(), username: z.string() });
export const AccountGoogleLinkedSchema = z.object({
  accountId: z.string(),
  googleId: z.string(),
  picture: z.string().nullable(),
});
/**
 * The account's auto-renewal. subscriptionId and cancelAtPeriodEnd: present when the provider's subscription was
 * changed to match (docs/product/payments.md PAY11); absent, the choice is only kept (no subscription to change).
 */
export const AccountAutoRenewalChangedSchema = z.object({
  accountId: z.string(),
  autoRenewal: z.boolean(),
  subscriptionId: z.string().optional(),
  cancelAtPeriodEnd: z.boolean().optional(),
});
/** The tombstone: recorded after the account's key is destroyed, so it carries nothing personal. */
export const AccountDeletedSchema = z.object({ accountId: z.string(), deletedAt: z.string() });
// The superadmin's actions on an account (billing records them, sealed under the account's key like the rest).
/** The account cannot sign in (its sessions were revoked) or open rooms from the dashboard until unsuspended. */
export const AccountSuspendedSchema = z.object({ accountId: z.string(), reason: z.string(), suspendedAt: z.string() });
export const AccountUnsuspendedSchema = z.object({ accountId: z.string(), unsuspendedAt: z.string() });
/** An admin trial: the tier until `until` (marked upgradedByAdmin), then back to free unless a subscription took over. */
export const AdminTrialGrantedSchema = z.object({
  accountId: z.string(),
  tier: z.enum(['pro', 'business']),
  previousTier: TierSchema,
  until: z.string(),
  grantedAt: z.string(),
});
/** The trial is over (its time ran out, or the superadmin ended it): the account is on `tier` again. */
export const AdminTrialEndedSchema = z.object({
  accountId: z.string(),
  tier: TierSchema,
  reason: z.enum(['expired', 'ended-by-admin']),
  endedAt: z.string(),
});
/** room events (topic room, sealed under the room key): a registered account became the room's owner */
export const WorkspaceClaimedSchema = z.object({
  workspaceId: z.string(),
  accountId: z.string(),
  userId: z.string(),
  tokenHash: z.string(),
  claimedAt: z.string(),
});
/** the owner account asked for the room from a device: the owner member's token was replaced (hash only) */
export const OwnerTokenIssuedSchema = z.object({
  workspaceId: z.string(),
  accountId: z.string(),
  userId: z.string(),
  tokenHash: z.string(),
});

// ---- internal calls (never routed from outside: gateways and the ingress refuse /internal/) ----
export const ACCOUNT_INTERNAL = {
  /** billing: the account a session token names, or null */
  resolveSession: '/internal/accounts/resolve-session',
  /** billing: an account's standing (docs/product/payments.md PAY12) */
  accountStanding: '/internal/accounts/standing',
  /** room: claim a room for an account with its owner token */
  claimWorkspace: '/internal/rooms/claim',
  /** room: the rooms an account owns */
  roomsOfAccount: '/internal/rooms/of-account',
  /** room: a fresh owner token for the account's room (generate-room-token) */
  ownerToken: '/internal/rooms/owner-token',
  /** room: delete every room of an account (account deletion: their keys are destroyed) */
  deleteRoomsOfAccount: '/internal/rooms/delete-of-account',
  /** room: every live room of an account takes the account's new tier (RoomTierChanged; payments) */
  changeTierOfAccount: '/internal/rooms/change-tier-of-account',
  /** room: a paid extension of one room (workspace.extended by the system; payments) */
  extendPaid: '/internal/rooms/extend-paid',
} as const;

/** what an account's subscription still allows (accountStanding in standing.ts; docs/product/payments.md PAY12) */
export type AccountStanding = 'active' | 'grace' | 'expired';
/** standing: what the account's subscription still allows */
export interface SessionAccount {
  accountId: string;
  email: string;
  username: string;
  tier: Tier;
  standing: AccountStanding;
}
/** What the room service asks billing. */
export interface AccountSessionsApi {
  resolveSession(token: string): Promise<SessionAccount | null>;
  /** the standing of a room's owner account (an extension); an account billing does not know: active */
  standingOf(accountId: string): Promise<AccountStanding>;
}
/** What billing asks the room service. */
export interface AccountRoomsApi {
  /** tier: the account's, for its room allowance (ENTITLEMENTS.roomsPerAccount) */
  claimWorkspace(input: {
    workspaceId: string;
    userToken: string;
    accountId: string;
    tier?: Tier;
  }): Promise<ClaimAnswer>;
  roomsOfAccount(input: { accountId: string }): Promise<DashboardRoom[]>;
  ownerToken(input: {
    accountId: string;
    roomName: string;
  }): Promise<{ workspaceId: string; roomName: string; ownerToken: string }>;
  deleteRoomsOfAccount(input: { accountId: string }): Promise<{ deleted: string[] }>;
  /** payments: the account's live rooms take this tier (no-op for rooms already on it); the rooms that changed */
  changeTierOfAccount(input: { accountId: string; tier: Tier; reason: string }): Promise<{ changed: string[] }>;
  /** payments: a paid extension of a live room (from its current expiry); NEVER_EXPIRES for a permanent room */
  extendPaid(input: {
    roomId: string;
    additionalHours: number;
    reason: string;
  }): Promise<{ workspaceId: string; roomName: string; expiresAt: string | null }>;
}

export { AUTH_PREFIX, AUTH_API, DELETE_CONFIRMATION } from './account-paths.ts';
