/** The app's routes (specs/admin-and-overlays.md route table), parsed from the address. */
import { RESERVED_ROOM_NAMES } from '@ephemera/proto';

export const STATIC_PAGES = [
  'login', 'upgrade', 'dashboard', 'features', 'about', 'privacy', 'terms', 'contact', 'subscription',
  'payment/success', 'payment/cancelled',
] as const;
export type StaticPage = (typeof STATIC_PAGES)[number];

export type Route =
  | { kind: 'landing' }
  | { kind: 'room'; roomName: string; create: boolean; via: 'path' | 'join' }
  | { kind: 'workspace'; workspaceId: string; create: boolean }
  | { kind: 'page'; page: StaticPage }
  | { kind: 'redirect'; to: string }
  | { kind: 'notFound' };

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function parseRoute(pathname: string, search = ''): Route {
  const params = new URLSearchParams(search);
  const create = params.get('create') === 'true';
  const raw = pathname.split('/').filter(Boolean);
  const segments = raw.map(decode);
  if (segments.some((s) => s === null)) return { kind: 'notFound' };
  const seg = segments as string[];
  if (seg.length === 0) return { kind: 'landing' };

  const joined = seg.join('/');
  if ((STATIC_PAGES as readonly string[]).includes(joined)) return { kind: 'page', page: joined as StaticPage };
  if (joined === 'register') return { kind: 'redirect', to: '/login' };

  const [first, second, third] = seg;
  if (first === 'join') {
    if (second === 'room') {
      return third && seg.length === 3 ? { kind: 'room', roomName: third, create, via: 'join' } : { kind: 'redirect', to: '/' };
    }
    return second && seg.length === 2 ? { kind: 'workspace', workspaceId: second, create } : { kind: 'redirect', to: '/' };
  }
  if (first === 'workspace') {
    return second && seg.length === 2 ? { kind: 'workspace', workspaceId: second, create } : { kind: 'redirect', to: '/' };
  }
  if (seg.length === 1 && first) {
    if ((RESERVED_ROOM_NAMES as readonly string[]).includes(first.toLowerCase())) return { kind: 'notFound' };
    const name = first.trim();
    return name ? { kind: 'room', roomName: name, create, via: 'path' } : { kind: 'redirect', to: '/' };
  }
  return { kind: 'notFound' };
}

/** Path of a room page. */
export function roomPath(roomName: string): string {
  return `/${encodeURIComponent(roomName)}`;
}
