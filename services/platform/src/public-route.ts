/**
 * Public HTTP routes, registered from the authorization table (proto/src/http-authz.ts; docs/security.md, "Who may call
 * what"). `publicRoute(router, id, callers, handler)` takes the route's method and path from its HTTP_ROUTES row and
 * enforces its HTTP_AUTHZ row before the handler runs:
 *   - a row that allows `anonymous` lets everyone through (the handler may still read an optional credential);
 *   - a row of room roles (owner, admin, member) needs the member a room credential names, whose role it allows;
 *   - a row of account roles needs a signed-in account session: `superadmin` for the superadmin's rows; a
 *     `room-owner-account` row needs an account here and the owning service checks the claim the route names;
 *   - a row that allows nobody refuses everyone.
 * The handler gets the caller the row asked for, so it never authenticates again. `assertRoutesFromTable(app)` walks
 * an app's routers at start and refuses to serve a `/api` route that was not registered here: a route without a row
 * cannot be served. `bearerToken` is the one parser of `Authorization: Bearer {token}`; no other file reads the header
 * (services/platform/test/public-route.test.ts checks the services' sources).
 */
import type express from 'express';
import type { Request, Response } from 'express';
import {
  DomainError,
  HTTP_AUTHZ,
  HTTP_ROUTES,
  authorize,
  type HttpRouteId,
  type Role,
  type RoomTokensApi,
  type SessionAccount,
} from '@ephemera/proto';
import { route } from './http.ts';

/** The token of `Authorization: Bearer {token}` (room tokens and account sessions alike), or null. */
export function bearerToken(authorization: string | null | undefined): string | null {
  return /^Bearer ([A-Za-z0-9_-]{16,200})$/.exec(authorization ?? '')?.[1] ?? null;
}
export const bearerOfRequest = (req: Request): string | null => bearerToken(req.get('authorization'));
/** Whether the request sends an Authorization header at all, parsable or not (a route that also takes a signed link). */
export const sendsAuthorization = (req: Request): boolean => Boolean(req.get('authorization'));

/**
 * Billing's account session tokens start with this. A room token (newToken in ids.ts: base64url of random bytes)
 * starts with it only by chance, about once in 2^24 tokens.
 */
export const SESSION_TOKEN_PREFIX = 'ses_';
/** The request's bearer when it is an account session's token, or null (a room token, none, or a malformed header). */
export function sessionBearerOfRequest(req: Request): string | null {
  const token = bearerOfRequest(req);
  return token?.startsWith(SESSION_TOKEN_PREFIX) ? token : null;
}

export interface MemberCaller {
  kind: 'member';
  role: 'owner' | 'admin' | 'member';
  workspaceId: string;
  userId: string;
}
/** `account`: what the service's session check answered (its account record) */
export interface AccountCaller<A = unknown> {
  kind: 'account';
  accountId: string;
  superadmin: boolean;
  account: A;
}
export type Caller<A = unknown> = { kind: 'anonymous' } | MemberCaller | AccountCaller<A>;

/**
 * How this service learns who calls: each throws the refusal its credential calls for (NOT_AUTHENTICATED, KICKED,
 * NO_AUTH_TOKEN, SESSION_INVALID...) when the request names nobody.
 */
export interface Callers<A = unknown> {
  member?: (req: Request) => Promise<MemberCaller>;
  account?: (req: Request) => Promise<AccountCaller<A>>;
}

/**
 * The member a room token (`Authorization: Bearer`) names, asked of the one room-token check (RoomTokensApi: the
 * room service), in `workspaceId`'s room when the route names one; NOT_AUTHENTICATED (or KICKED) otherwise.
 */
export async function roomMemberOf(
  tokens: RoomTokensApi,
  req: Request,
  workspaceId?: string | null,
): Promise<MemberCaller> {
  const userToken = bearerOfRequest(req);
  if (!userToken) throw new DomainError('NOT_AUTHENTICATED');
  return { kind: 'member', ...(await tokens.memberOfToken({ userToken, workspaceId: workspaceId ?? null })) };
}

/**
 * The account of the request's session, as billing answers whose a session is (`resolve`), for the services that ask
 * it; the superadmin is the account of `superadminEmail`. NO_AUTH_TOKEN without a token, SESSION_INVALID for one
 * that names no live session.
 */
export function sessionAccountCaller(
  resolve: (token: string) => Promise<SessionAccount | null>,
  superadminEmail: string | null = null,
) {
  return async (req: Request): Promise<AccountCaller<SessionAccount>> => {
    const token = bearerOfRequest(req);
    if (!token) throw new DomainError('NO_AUTH_TOKEN');
    const account = await resolve(token);
    if (!account) throw new DomainError('SESSION_INVALID');
    const superadmin = superadminEmail !== null && account.email.toLowerCase() === superadminEmail;
    return { kind: 'account', accountId: account.accountId, superadmin, account };
  };
}

/** The member of a room-role route (its row made sure of it). */
export function memberOf(caller: Caller<unknown>): MemberCaller {
  if (caller.kind !== 'member') throw new Error('not a member route');
  return caller;
}
/** The account of an account-role route (its row made sure of it). */
export function accountOf<A>(caller: Caller<A>): AccountCaller<A> {
  if (caller.kind !== 'account') throw new Error('not an account route');
  return caller;
}

const ROOM_ROLES: readonly Role[] = ['owner', 'admin', 'member'];
const ACCOUNT_ROLES: readonly Role[] = ['account', 'room-owner-account', 'superadmin'];
const fromTable = new WeakSet<object>();

/** Who may call route `id`, from its row; resolves the caller the row needs or throws its refusal. */
export async function callerFor<A>(id: HttpRouteId, callers: Callers<A>, req: Request): Promise<Caller<A>> {
  const rule = HTTP_AUTHZ[id];
  if (rule.allow.includes('anonymous')) return { kind: 'anonymous' };
  if (rule.allow.length === 0) throw new DomainError('FORBIDDEN');
  if (rule.allow.some((r) => ROOM_ROLES.includes(r))) {
    if (!callers.member) throw new Error(`route ${id} needs a member authenticator`);
    const member = await callers.member(req);
    authorize(rule, member.role);
    return member;
  }
  if (!rule.allow.some((r) => ACCOUNT_ROLES.includes(r)))
    throw new Error(`route ${id}: a row this helper cannot enforce`);
  if (!callers.account) throw new Error(`route ${id} needs an account authenticator`);
  const account = await callers.account(req);
  // The claim behind room-owner-account is the owning service's check (the row's `also`); here: any account.
  const roles: Role[] = account.superadmin
    ? ['superadmin', 'account', 'room-owner-account']
    : ['account', 'room-owner-account'];
  if (!roles.some((r) => rule.allow.includes(r))) {
    throw new DomainError(rule.allow.every((r) => r === 'superadmin') ? 'SUPERADMIN_REQUIRED' : 'FORBIDDEN');
  }
  return account;
}

/** Registers route `id` (method and path from its row) on router, behind its authorization row. */
export function publicRoute<A>(
  router: express.Router,
  id: HttpRouteId,
  callers: Callers<A>,
  handler: (req: Request, res: Response, caller: Caller<A>) => Promise<void>,
  ...before: express.RequestHandler[]
): void {
  publicRouteAt(router, id, HTTP_ROUTES[id].path, callers, handler, ...before);
}

/** The same, at another spelling of the row's path that the row names (e.g. a path segment the spec made optional). */
export function publicRouteAt<A>(
  router: express.Router,
  id: HttpRouteId,
  path: string,
  callers: Callers<A>,
  handler: (req: Request, res: Response, caller: Caller<A>) => Promise<void>,
  ...before: express.RequestHandler[]
): void {
  const r = router.route(path);
  fromTable.add(r);
  const method = HTTP_ROUTES[id].method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  r[method](
    ...before,
    route(async (req, res) => {
      const caller = await callerFor(id, callers, req);
      res.locals.caller = caller;
      await handler(req, res, caller);
    }),
  );
}

/** Any other method on route `id`'s path: 405 with Allow (part of the row: registered here too). */
export function methodNotAllowed(router: express.Router, id: HttpRouteId): void {
  const row = HTTP_ROUTES[id];
  const allow = row.method === 'GET' ? 'GET, HEAD' : row.method;
  const r = router.route(row.path);
  fromTable.add(r);
  r.all((_req, res) => {
    res
      .status(405)
      .set('Allow', allow)
      .json({ success: false, code: 'VALIDATION', message: `Use ${row.method}` });
  });
}

interface Layer {
  route?: { path: unknown; methods?: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Throws, naming the route, if app serves a /api route that publicRoute did not register (no row, no checks). */
export function assertRoutesFromTable(app: express.Express | express.Router, except: RegExp[] = []): void {
  const root = app as unknown as { router?: { stack: Layer[] }; stack?: Layer[] };
  const stack = root.router?.stack ?? root.stack ?? [];
  const walk = (layers: Layer[]) => {
    for (const layer of layers) {
      if (layer.route) {
        const path = String(layer.route.path);
        if (path.startsWith('/api') && !fromTable.has(layer.route) && !except.some((e) => e.test(path))) {
          throw new Error(
            `public route ${Object.keys(layer.route.methods ?? {})
              .join(',')
              .toUpperCase()} ${path} was not registered from the authorization table (publicRoute)`,
          );
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk(stack);
}
