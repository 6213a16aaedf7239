import { describe, expect, it } from 'vitest';
import { parseRoute, roomPath } from './routes.ts';

describe('parseRoute', () => {
  it('/ is the landing page', () => {
    expect(parseRoute('/')).toEqual({ kind: 'landing' });
  });
  it('/{roomName} is a room page, with create=true honoured', () => {
    expect(parseRoute('/my-team')).toEqual({ kind: 'room', roomName: 'my-team', create: false, via: 'path' });
    expect(parseRoute('/my-team/', '?create=true')).toEqual({ kind: 'room', roomName: 'my-team', create: true, via: 'path' });
    expect(parseRoute('/caf%C3%A9')).toMatchObject({ kind: 'room', roomName: 'café' });
  });
  it('join and workspace entry points', () => {
    expect(parseRoute('/join/room/abc')).toEqual({ kind: 'room', roomName: 'abc', create: false, via: 'join' });
    expect(parseRoute('/join/ws_123')).toEqual({ kind: 'workspace', workspaceId: 'ws_123', create: false });
    expect(parseRoute('/workspace/ws_123')).toEqual({ kind: 'workspace', workspaceId: 'ws_123', create: false });
  });
  it('no room name redirects home', () => {
    expect(parseRoute('/join/room/')).toEqual({ kind: 'redirect', to: '/' });
    expect(parseRoute('/join')).toEqual({ kind: 'redirect', to: '/' });
    expect(parseRoute('/%20')).toEqual({ kind: 'redirect', to: '/' });
  });
  it('app pages are not rooms; /register goes to /login', () => {
    expect(parseRoute('/login')).toEqual({ kind: 'page', page: 'login' });
    expect(parseRoute('/payment/success')).toEqual({ kind: 'page', page: 'payment/success' });
    expect(parseRoute('/register')).toEqual({ kind: 'redirect', to: '/login' });
    expect(parseRoute('/api')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/a/b')).toEqual({ kind: 'notFound' });
    expect(parseRoute('/%E0%A4%A')).toEqual({ kind: 'notFound' });
  });
  it('roomPath encodes', () => {
    expect(roomPath('a b')).toBe('/a%20b');
  });
});
