/**
 * The app's routes (docs/product/rooms.md R1, accounts.md A5, payments.md, admin.md) as react-router route objects,
 * and the rules
 * react-router's matcher does not know: reserved room names, bad percent-encoding, blank names, ?create=true.
 *
 * App.tsx gives each route object of ROUTE_TABLE its element; `parseRoute` runs the same table through
 * react-router's own `matchRoutes`, so the unit tests prove what the browser router does.
 */
import { matchRoutes, type Params } from 'react-router';
import { RESERVED_ROOM_NAMES } from '@ephemera/proto/client';
import { ADMIN_PAGE_PATH } from '@ephemera/proto/client';
import type { Area } from '../i18n/locales.ts';

export const STATIC_PAGES = [
  'login',
  'upgrade',
  'dashboard',
  'features',
  'about',
  'privacy',
  'terms',
  'contact',
  'subscription',
  'payment/success',
  'payment/cancelled',
] as const;
export type StaticPage = (typeof STATIC_PAGES)[number];

export type Route =
  | { kind: 'landing' }
  | { kind: 'room'; roomName: string; create: boolean; via: 'path' | 'join' }
  | { kind: 'workspace'; workspaceId: string; create: boolean }
  | { kind: 'page'; page: StaticPage }
  /** the superadmin dashboard, at its obscure path (ADMIN_PAGE_PATH) */
  | { kind: 'superadmin' }
  | { kind: 'redirect'; to: string }
  | { kind: 'notFound' };

/** What a matched route object stands for (its `id` in react-router, unique). */
export type RouteId =
  | 'landing'
  | 'register'
  | `page:${StaticPage}`
  | 'joinRoom'
  | 'joinWorkspace'
  | 'workspace'
  | 'room'
  | 'joinHome'
  | 'joinRoomHome'
  | 'workspaceHome'
  | 'superadmin'
  | 'notFound';

export interface RouteDef {
  id: RouteId;
  path: string;
  /** '/Login' is a (reserved) room name, not the login page, as before the router */
  caseSensitive: true;
}

const def = (id: RouteId, path: string): RouteDef => ({ id, path, caseSensitive: true });

/** Matched by react-router's ranking (static segments beat dynamic ones, splats come last). */
export const ROUTE_TABLE: RouteDef[] = [
  def('landing', '/'),
  def('register', '/register'),
  ...STATIC_PAGES.map((p) => def(`page:${p}`, `/${p}`)),
  def('superadmin', ADMIN_PAGE_PATH),
  def('joinRoom', '/join/room/:roomName'),
  def('joinWorkspace', '/join/:workspaceId'),
  def('workspace', '/workspace/:workspaceId'),
  // an entry point without its name or id (or with extra segments): home
  def('joinRoomHome', '/join/room'),
  def('joinHome', '/join/*'),
  def('workspaceHome', '/workspace/*'),
  def('room', '/:roomName'),
  def('notFound', '*'),
];

/** The path's segments decoded, or null when one has a bad percent-encoding. */
export function decodeSegments(pathname: string): string[] | null {
  const out: string[] = [];
  for (const segment of pathname.split('/')) {
    try {
      out.push(decodeURIComponent(segment));
    } catch {
      return null;
    }
  }
  return out;
}

/**
 * A path segment that decodeURIComponent refuses (react-router then leaves the whole path undecoded).
 * (The decoded value is used, so that no minifier drops the call as free of side effects.)
 */
export function hasBadEncoding(pathname: string): boolean {
  return decodeSegments(pathname) === null;
}

export function isReservedRoomName(name: string): boolean {
  return (RESERVED_ROOM_NAMES as readonly string[]).includes(name.toLowerCase());
}

/** The route a matched route object means, given its (decoded) params and the address. */
export function resolveMatch(id: RouteId, params: Params, pathname: string, search: string): Route {
  if (hasBadEncoding(pathname)) return { kind: 'notFound' };
  const create = new URLSearchParams(search).get('create') === 'true';
  if (id.startsWith('page:')) return { kind: 'page', page: id.slice('page:'.length) as StaticPage };
  switch (id) {
    case 'landing':
      return { kind: 'landing' };
    case 'superadmin':
      return { kind: 'superadmin' };
    case 'register': // the query (redirect, plan, claimWorkspace) goes along
      return { kind: 'redirect', to: `/login${search}` };
    case 'joinRoom': {
      const name = params.roomName ?? '';
      return name ? { kind: 'room', roomName: name, create, via: 'join' } : { kind: 'redirect', to: '/' };
    }
    case 'joinWorkspace':
    case 'workspace': {
      const workspaceId = params.workspaceId ?? '';
      return workspaceId ? { kind: 'workspace', workspaceId, create } : { kind: 'redirect', to: '/' };
    }
    case 'joinHome':
    case 'joinRoomHome':
    case 'workspaceHome':
      return { kind: 'redirect', to: '/' };
    case 'room': {
      const raw = params.roomName ?? '';
      if (isReservedRoomName(raw)) return { kind: 'notFound' };
      const name = raw.trim();
      return name ? { kind: 'room', roomName: name, create, via: 'path' } : { kind: 'redirect', to: '/' };
    }
    default:
      return { kind: 'notFound' };
  }
}

/** The route of an address, through react-router's matcher and ROUTE_TABLE (tests and non-React callers). */
export function parseRoute(pathname: string, search = ''): Route {
  if (hasBadEncoding(pathname)) return { kind: 'notFound' };
  const matches = matchRoutes(ROUTE_TABLE, pathname);
  const leaf = matches?.[matches.length - 1];
  if (!leaf) return { kind: 'notFound' };
  return resolveMatch((leaf.route as RouteDef).id, leaf.params, pathname, search);
}

/** Path of a room page. */
export function roomPath(roomName: string): string {
  return `/${encodeURIComponent(roomName)}`;
}

const ACCOUNT_PAGES: readonly StaticPage[] = [
  'dashboard',
  'upgrade',
  'subscription',
  'payment/success',
  'payment/cancelled',
];

/**
 * The catalog areas (docs/i18n.md) the first screen of an address needs. main.tsx downloads them all at once before
 * the first render, so a room page does not wait for its own texts in a second round trip after its code arrived.
 */
export function catalogAreas(route: Route): Area[] {
  const areas: Area[] = ['common', 'public'];
  if (route.kind === 'room' || route.kind === 'workspace') areas.push('room', 'roomside');
  if (route.kind === 'superadmin') areas.push('admin');
  if (route.kind === 'page' && ACCOUNT_PAGES.includes(route.page)) areas.push('account');
  return areas;
}
