import { describe, expect, it } from 'vitest';
import {
  contains,
  encodeAck,
  encodeConnect,
  encodeEvent,
  makeContent,
  parseFrame,
  readContent,
  startsWith,
} from './wire.ts';

describe('Engine.IO / Socket.IO frames', () => {
  it('parses the handshake, ping, connect and connect error', () => {
    expect(parseFrame('0{"sid":"a","upgrades":[],"pingInterval":25000,"pingTimeout":20000}')).toMatchObject({
      kind: 'open',
      handshake: { sid: 'a', pingInterval: 25000 },
    });
    expect(parseFrame('2')).toEqual({ kind: 'ping' });
    expect(parseFrame('3')).toEqual({ kind: 'pong' });
    expect(parseFrame('40{"sid":"x"}')).toEqual({ kind: 'connect', data: { sid: 'x' } });
    expect(parseFrame('44{"message":"nope"}')).toEqual({ kind: 'connect-error', data: { message: 'nope' } });
  });

  it('parses events with and without ack ids, and acks', () => {
    expect(parseFrame('42["message",{"seq":1}]')).toEqual({
      kind: 'event',
      id: null,
      name: 'message',
      args: [{ seq: 1 }],
    });
    expect(parseFrame('4217["send-message",{"a":1}]')).toEqual({
      kind: 'event',
      id: 17,
      name: 'send-message',
      args: [{ a: 1 }],
    });
    expect(parseFrame('43105[{"success":true}]')).toEqual({ kind: 'ack', id: 105, args: [{ success: true }] });
  });

  it('encodes what it parses', () => {
    expect(encodeConnect()).toBe('40');
    expect(encodeConnect({ token: 't' })).toBe('40{"token":"t"}');
    expect(encodeEvent('join', 'r')).toBe('42["join","r"]');
    expect(encodeEvent('send-message', { x: 1 }, 3)).toBe('423["send-message",{"x":1}]');
    expect(parseFrame(encodeAck(9, [{ ok: 1 }]))).toEqual({ kind: 'ack', id: 9, args: [{ ok: 1 }] });
  });
});

describe('bench content', () => {
  it('round-trips through a JSON event frame, as a string and as bytes', () => {
    const c = makeContent(1712345678901.25, 'S3', 42, 100);
    expect(c.length).toBe(100);
    const frame = encodeEvent('message', { id: 'm1', content: c, seq: 5 });
    expect(readContent(frame)).toEqual({ t: 1712345678901.25, tag: 'S3', m: 42 });
    const buf = Buffer.from(frame);
    expect(readContent(buf)).toEqual({ t: 1712345678901.25, tag: 'S3', m: 42 });
    expect(startsWith(buf, '42["message"')).toBe(true);
    expect(startsWith(frame, '42["msg"')).toBe(false);
    expect(contains(buf, '~k=S3~', Buffer.from('~k=S3~'))).toBe(true);
    expect(contains(frame, '~k=S30~', Buffer.from('~k=S30~'))).toBe(false);
    expect(readContent('42["other",{}]')).toBeNull();
  });
});
