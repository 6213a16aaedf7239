import { describe, expect, it } from 'vitest';
import { catalogAreas, parseRoute, roomPath, ROUTE_TABLE, STATIC_PAGES, hasBadEncoding } from './routes.ts';
import { ADMIN_PAGE_PATH } from '@ephemera/proto/client';

/** parseRoute runs ROUTE_TABLE (the router's own route objects) through react-router's matchRoutes. */
describe('parseRoute', () => {
  it('/ is the landing page', () => {
    expect(parseRoute('/')).toEqual({ kind: 'landing' });
  });
  it('/{roomName} is a room page, with create=true honoured', () => {
    expect(parseRoute('/my-team')).toEqual({ kind: 'room', roomName: 'my-team', create: false, via: 'path' });
    expect(parseRoute('/my-team/', '?create=true')).toEqual({
      kind: 'room',
      roomName: 'my-team',
      create: true,
      via: 'path',
    });
    expect(parseRoute('/my-team', '?create=false')).toMatchObject({ kind: 'room', create: false });
    expect(parseRoute('/caf%C3%A9')).toMatchObject({ kind: 'room', roomName: 'café' });
    expect(parseRoute('/a%2Fb')).toMatchObject({ kind: 'room', roomName: 'a/b' });
  });
  it('join and workspace entry points', () => {
    expect(parseRoute('/join/room/abc')).toEqual({ kind: 'room', roomName: 'abc', create: false, via: 'join' });
    expect(parseRoute('/join/room/abc', '?create=true')).toEqual({
      kind: 'room',
      roomName: 'abc',
      create: true,
      via: 'join',
    });
    expect(parseRoute('/join/ws_123')).toEqual({ kind: 'workspace', workspaceId: 'ws_123', create: false });
    expect(parseRoute('/workspace/ws_123')).toEqual({ kind: 'workspace', workspaceId: 'ws_123', create: false });
  });
  it('no room name (or extra segments after an entry point) redirects home', () => {
    for (const p of [
      '/join/room/',
      '/join/room',
      '/join',
      '/join/',
      '/workspace',
      '/workspace/',
      '/%20',
      '/join/a/b',
      '/join/room/a/b',
      '/workspace/a/b',
    ]) {
      expect(parseRoute(p), p).toEqual({ kind: 'redirect', to: '/' });
    }
  });
  it('app pages are not rooms; /register goes to /login', () => {
    expect(parseRoute('/login')).toEqual({ kind: 'page', page: 'login' });
    expect(parseRoute('/payment/success')).toEqual({ kind: 'page', page: 'payment/success' });
    for (const page of STATIC_PAGES) expect(parseRoute(`/${page}`)).toEqual({ kind: 'page', page });
    expect(parseRoute('/register')).toEqual({ kind: 'redirect', to: '/login' });
    expect(parseRoute('/register/')).toEqual({ kind: 'redirect', to: '/login' });
    expect(parseRoute(ADMIN_PAGE_PATH)).toEqual({ kind: 'superadmin' });
    expect(parseRoute(ADMIN_PAGE_PATH.toUpperCase())).toMatchObject({ kind: 'room' });
    expect(parseRoute('/register', '?claimWorkspace=abc&redirect=%2Fdashboard')).toEqual({
      kind: 'redirect',
      to: '/login?claimWorkspace=abc&redirect=%2Fdashboard',
    });
  });
  it('reserved names, unknown deeper paths and bad percent-encoding are not found', () => {
    expect(parseRoute('/api')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/Admin')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/payment')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/payment/other')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/a/b')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/%E0%A4%A')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/join/room/%E0%A4%A')).toEqual({ kind: 'notFound' });
  });
  it('matching is case-sensitive: /Login is the reserved room name login, not the login page', () => {
    expect(parseRoute('/Login')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/JOIN/room/x')).toEqual({ kind: 'notFound' });
  });
  it('the route table has unique ids (createBrowserRouter requires it)', () => {
    const ids = ROUTE_TABLE.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
  it('hasBadEncoding', () => {
    expect(hasBadEncoding('/ok%20name')).toBe(false);
    expect(hasBadEncoding('/%E0%A4%A')).toBe(true);
    expect(hasBadEncoding('/x/%')).toBe(true);
  });
  it('roomPath encodes', () => {
    expect(roomPath('a b')).toBe('/a%20b');
    expect(parseRoute(roomPath('a/b ü'))).toMatchObject({ kind: 'room', roomName: 'a/b ü' });
  });
});

describe('catalogAreas', () => {
  it('loads a page’s own texts with the first render', () => {
    expect(catalogAreas(parseRoute('/'))).toEqual(['common', 'public']);
    expect(catalogAreas(parseRoute('/some-room'))).toEqual(['common', 'public', 'room', 'roomside']);
    expect(catalogAreas(parseRoute('/workspace/abc'))).toEqual(['common', 'public', 'room', 'roomside']);
    expect(catalogAreas(parseRoute('/dashboard'))).toEqual(['common', 'public', 'account']);
    expect(catalogAreas(parseRoute(ADMIN_PAGE_PATH))).toEqual(['common', 'public', 'admin']);
    expect(catalogAreas(parseRoute('/about'))).toEqual(['common', 'public']);
  });
});
