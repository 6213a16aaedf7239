/** What the directory's routes accept: path parameters, queries and bodies, each refused with a clear 400. */
import { z } from 'zod';
import {
  ADMIN_FILTERS,
  ADMIN_LIMITS,
  ADMIN_TEXT,
  DomainError,
  EmailSchema,
  IdSchema,
  ReasonBodySchema,
} from '@ephemera/proto';
import { parseOrThrow } from '@ephemera/platform';
import type express from 'express';

export const emailParam = (req: express.Request): string => parseOrThrow(EmailSchema, req.params.email);
export const roomIdParam = (req: express.Request): string => parseOrThrow(IdSchema, req.params.id);

/** the deepest page asked for (50 rows a page: five million rows) */
const MAX_PAGE = 100_000;
const wholeNumber = (what: string, max: number) =>
  z
    .string(`${what} is one number`)
    .regex(/^\d{1,7}$/, `${what} is a whole number from 1 to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, `${what} is a whole number from 1 to ${max}`)
        .max(max, `${what} is a whole number from 1 to ${max}`),
    );
/** ?search= (one value): trimmed, at most ADMIN_LIMITS.searchMax characters */
const search = z
  .string('Search with one text')
  .trim()
  .max(ADMIN_LIMITS.searchMax, `Search with at most ${ADMIN_LIMITS.searchMax} characters`)
  .optional()
  .transform((s) => s ?? '');
const paging = {
  search,
  page: wholeNumber('The page', MAX_PAGE)
    .optional()
    .transform((n) => n ?? 1),
  pageSize: wholeNumber('The page size', ADMIN_LIMITS.tableRows)
    .optional()
    .transform((n) => n ?? ADMIN_LIMITS.tableRows),
};
const strictQuery = <T extends z.ZodRawShape>(shape: T, names: string) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `The list takes only ${names}` : undefined),
  });
const oneOf = (what: string, values: readonly [string, ...string[]]) =>
  `The ${what} filter is one of ${values.join(', ')}`;

/** GET /api/admin/users: ?search= (e-mail or username, at least ADMIN_LIMITS.accountSearchMin characters), ?tier=, ?status=, ?page=, ?pageSize= */
const UsersQuerySchema = strictQuery(
  {
    ...paging,
    tier: z.enum(ADMIN_FILTERS.tier, oneOf('tier', ADMIN_FILTERS.tier)).optional(),
    status: z.enum(ADMIN_FILTERS.paymentStatus, oneOf('status', ADMIN_FILTERS.paymentStatus)).optional(),
  },
  'search, tier, status, page and pageSize',
);
export type UsersQuery = z.output<typeof UsersQuerySchema>;
export function usersQuery(req: express.Request): UsersQuery {
  const query = parseOrThrow(UsersQuerySchema, req.query);
  // e-mails and usernames are sealed: they are searched by their three-character runs (read-model.ts)
  if (query.search !== '' && Array.from(query.search).length < ADMIN_LIMITS.accountSearchMin) {
    throw new DomainError(
      'VALIDATION',
      `Search e-mails and usernames with at least ${ADMIN_LIMITS.accountSearchMin} characters`,
    );
  }
  return query;
}

/** GET /api/admin/rooms: ?search= (room name, or owner's e-mail from ADMIN_LIMITS.accountSearchMin characters), ?status=, ?page=, ?pageSize= */
const RoomsQuerySchema = strictQuery(
  {
    ...paging,
    status: z.enum(ADMIN_FILTERS.roomStatus, oneOf('status', ADMIN_FILTERS.roomStatus)).optional(),
  },
  'search, status, page and pageSize',
);
export type RoomsQuery = z.output<typeof RoomsQuerySchema>;
export const roomsQuery = (req: express.Request): RoomsQuery => parseOrThrow(RoomsQuerySchema, req.query);

/** ?limit= of the moderation viewer: 1 to 50, default 50 */
export const messagesLimit = (req: express.Request): number =>
  parseOrThrow(
    z
      .string()
      .regex(/^\d{1,3}$/, `The limit is a number from 1 to ${ADMIN_LIMITS.moderationMessages}`)
      .transform(Number)
      .pipe(
        z.number().min(1).max(ADMIN_LIMITS.moderationMessages, `At most ${ADMIN_LIMITS.moderationMessages} messages`),
      )
      .optional(),
    req.query.limit,
  ) ?? ADMIN_LIMITS.moderationMessages;

/** {reason}: a missing, empty or non-text reason is the spec's "a reason is required" */
export function reasonOf(body: unknown): string {
  const parsed = ReasonBodySchema.safeParse(body ?? {});
  if (parsed.success) return parsed.data.reason;
  const tooLong = parsed.error.issues.some((i) => i.code === 'too_big');
  throw new DomainError(
    'VALIDATION',
    tooLong ? 'The reason must be at most 500 characters' : ADMIN_TEXT.reasonRequired,
  );
}

/**
 * PUT /api/admin/users/{email}/subscription (no screen uses it). Tiers change only from verified provider data or an
 * admin trial, so the one change accepted is ending an admin trial early: {subscriptionTier: 'free'}. Any other field
 * (a paid tier, a payment status, a period end) belongs to the payment provider and is refused.
 */
export const SetSubscriptionBodySchema = z.strictObject(
  {
    subscriptionTier: z.literal(
      'free',
      'Only "free" is accepted: it ends an admin trial. Paid tiers change only through verified payments',
    ),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? 'Subscription fields other than subscriptionTier belong to the payment provider and cannot be set here'
        : undefined,
  },
);
