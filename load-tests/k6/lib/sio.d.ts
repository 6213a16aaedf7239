/** Types of sio.js (the k6 scenarios' Engine.IO/Socket.IO framing), for sio.test.ts. */
export const EIO_PATH: string;
export const PING: '2';
export const PONG: '3';
export function socketUrl(origin: string): string;
export function encodeConnect(auth?: object): string;
export function encodeEvent(name: string, payload?: unknown, ackId?: number | null): string;
export function encodeAck(id: number, args: unknown[]): string;
export type Packet =
  | {
      kind: 'open';
      handshake: { sid: string; pingInterval: number; pingTimeout: number; upgrades: string[]; maxPayload: number };
    }
  | { kind: 'ping' }
  | { kind: 'pong' }
  | { kind: 'close' }
  | { kind: 'connect'; data: unknown }
  | { kind: 'connect-error'; data: unknown }
  | { kind: 'event'; id: number | null; name: string; args: unknown[] }
  | { kind: 'ack'; id: number; args: unknown[] }
  | { kind: 'other'; raw: string };
export function parsePacket(raw: string): Packet;
export function eventName(raw: string): string | null;
export function makeContent(sendMs: number, tag: string, bytes: number): string;
export function readContent(raw: string): { t: number; tag: string } | null;
export function readSeq(raw: string): number | null;
