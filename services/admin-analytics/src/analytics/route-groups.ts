/**
 * Page views are counted by route group (the route table, docs/product/rooms.md R1), never by the full path: a room's
 * name
 * in /{roomName} or /join/room/{roomName} stays out of the aggregates and their number stays bounded.
 */
import { ADMIN_PAGE_PATH } from '@ephemera/proto';

const NAMED = new Set([
  'login',
  'register',
  'upgrade',
  'dashboard',
  'features',
  'join',
  'workspace',
  'about',
  'privacy',
  'terms',
  'contact',
  'subscription',
  'payment',
]);

/** '/' home, '/join', '/payment', ...; the admin page 'admin'; anything else (the catch-all room page) 'room' */
export function routeGroup(path: string): string {
  if (path === '/' || path === '') return '/';
  if (path === ADMIN_PAGE_PATH || path.startsWith(`${ADMIN_PAGE_PATH}/`)) return 'admin';
  const first = path.split('/')[1]?.toLowerCase() ?? '';
  return NAMED.has(first) ? `/${first}` : 'room';
}

/** the path without query and fragment: tokens in a query string (docs/product/security.md S5) never enter the log */
export const pathOnly = (path: string): string => path.split(/[?#]/)[0] || '/';
