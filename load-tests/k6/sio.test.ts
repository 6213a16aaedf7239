/** The k6 scenarios' Socket.IO framing (lib/sio.js), checked against the real socket.io-parser's encoding. */
import { describe, expect, it } from 'vitest';
import { Encoder, PacketType } from 'socket.io-parser';
import {
  EIO_PATH,
  encodeAck,
  encodeConnect,
  encodeEvent,
  eventName,
  makeContent,
  parsePacket,
  readContent,
  readSeq,
  socketUrl,
} from './lib/sio.js';

const sio = (p: Parameters<Encoder['encode']>[0]) => `4${new Encoder().encode(p)[0] as string}`;

describe('k6 Socket.IO framing', () => {
  it('encodes connect, events, events with an ack id, and acks as socket.io-parser does (inside an Engine.IO message)', () => {
    expect(encodeConnect()).toBe(sio({ type: PacketType.CONNECT, nsp: '/' }));
    expect(encodeEvent('join-workspace', { workspaceId: 'w1', username: 'a' })).toBe(
      sio({ type: PacketType.EVENT, nsp: '/', data: ['join-workspace', { workspaceId: 'w1', username: 'a' }] }),
    );
    expect(encodeEvent('send-message', { content: 'hi "x"' }, 12)).toBe(
      sio({ type: PacketType.EVENT, nsp: '/', id: 12, data: ['send-message', { content: 'hi "x"' }] }),
    );
    expect(encodeAck(7, [{ success: true }])).toBe(
      sio({ type: PacketType.ACK, nsp: '/', id: 7, data: [{ success: true }] }),
    );
  });

  it('parses the Engine.IO open packet, ping, pong, connect, connect errors, events and acks', () => {
    expect(
      parsePacket('0{"sid":"abc","pingInterval":25000,"pingTimeout":20000,"upgrades":[],"maxPayload":1000000}'),
    ).toMatchObject({ kind: 'open', handshake: { sid: 'abc', pingInterval: 25000 } });
    expect(parsePacket('2')).toEqual({ kind: 'ping' });
    expect(parsePacket('3')).toEqual({ kind: 'pong' });
    expect(parsePacket('40{"sid":"s1"}')).toEqual({ kind: 'connect', data: { sid: 's1' } });
    expect(parsePacket('44{"message":"RATE_LIMITED"}')).toEqual({
      kind: 'connect-error',
      data: { message: 'RATE_LIMITED' },
    });
    expect(parsePacket('42["message",{"seq":3}]')).toEqual({
      kind: 'event',
      id: null,
      name: 'message',
      args: [{ seq: 3 }],
    });
    expect(parsePacket('4215["ping-me",1,2]')).toEqual({ kind: 'event', id: 15, name: 'ping-me', args: [1, 2] });
    expect(parsePacket('43123[{"success":true,"channel":{"id":"c"}}]')).toEqual({
      kind: 'ack',
      id: 123,
      args: [{ success: true, channel: { id: 'c' } }],
    });
    expect(parsePacket(sio({ type: PacketType.ACK, nsp: '/', id: 9, data: [{ success: false, code: 'X' }] }))).toEqual({
      kind: 'ack',
      id: 9,
      args: [{ success: false, code: 'X' }],
    });
  });

  it('reads the event name, the bench content and the seq without a full parse', () => {
    expect(eventName('42["user-typing",{"a":1}]')).toBe('user-typing');
    expect(eventName('427["message",{}]')).toBe('message');
    expect(eventName('43["x"]')).toBeNull();
    expect(eventName('2')).toBeNull();
    const content = makeContent(1700000000123, 'abcS4', 100);
    expect(content).toHaveLength(100);
    const frame = encodeEvent('message', { id: 'm', seq: 42, content, replyTo: null });
    expect(readContent(frame)).toEqual({ t: 1700000000123, tag: 'abcS4' });
    expect(readContent('42["message",{"content":"plain"}]')).toBeNull();
    expect(readSeq(frame)).toBe(42);
    expect(socketUrl('http://127.0.0.1:8080/')).toBe(`ws://127.0.0.1:8080${EIO_PATH}`);
    expect(socketUrl('https://example.test')).toBe(`wss://example.test${EIO_PATH}`);
  });
});
