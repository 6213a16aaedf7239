/**
 * The gateway's websocket engine: the HTTP server Socket.IO runs on, which also answers /healthz and /readyz and,
 * given an upstream (embedded mode, or a gateway without an ingress), forwards every other HTTP request to it.
 *
 * Two adapters pass one contract suite (services/gateway/test/engine-contract.test.ts):
 * - `uws`: uWebSockets.js with Socket.IO attached (io.attachApp). Its native binary exists for some Node lines and
 *   C libraries only (uws.ts says which); it is used wherever it loads.
 * - `node`: Node's own HTTP server with Socket.IO's `ws` engine. It runs on every Node line.
 * uWS's JavaScript stand-in (what its republishes fall back to when no binary loads) is never used: its HTTP answers fail.
 *
 * GATEWAY_ENGINE picks one: `auto` (the default) takes uws when it loads and node otherwise; `uws` refuses to
 * start without it; `node` never loads uWS. The process logs which engine runs and why (docs/deployment.md).
 */
import type { Server } from 'socket.io';
import type { BodyHandoff } from '@ephemera/platform';
import { loadUws, uwsEngine } from './uws.ts';
import { nodeEngine } from './node.ts';

export type EngineName = 'uws' | 'node';
export type EngineChoice = 'auto' | EngineName;
export const ENGINE_CHOICES = ['auto', 'uws', 'node'] as const satisfies readonly EngineChoice[];

export interface EngineOptions {
  host: string;
  port: number;
  /** the Socket.IO server to serve on /socket.io/; absent: HTTP only (the proxy's own tests) */
  io?: Server;
  /** called once io.engine exists (Socket.IO creates it on attach), before the port listens */
  attached?: (io: Server) => void;
  /** /readyz's answer */
  ready: () => Promise<boolean>;
  /** every HTTP request that is not Socket.IO's or a health probe goes here; absent: 404 */
  upstream?: string;
  /** embedded mode: an upload's body is handed to the upstream route in-process (platform/body-handoff.ts) */
  handoff?: BodyHandoff;
  /** the client's address from the peer and the headers (trusted proxies only), sent upstream as X-Forwarded-For */
  addressOf: (peer: string, headers: Record<string, string>) => string;
}

export interface RunningEngine { port: number; close(): Promise<void> }

export interface GatewayEngine {
  name: EngineName;
  start(options: EngineOptions): Promise<RunningEngine>;
}

/** The engine GATEWAY_ENGINE asks for, and why it is that one (logged at start). */
export function chooseEngine(wanted: EngineChoice = 'auto'): { engine: GatewayEngine; why: string } {
  if (wanted === 'node') return { engine: nodeEngine, why: 'GATEWAY_ENGINE=node' };
  const uws = loadUws();
  if ('uws' in uws) return { engine: uwsEngine(uws.uws), why: `uWS ${uws.from} loads on Node ${process.versions.node}` };
  if (wanted === 'uws') throw new Error(`GATEWAY_ENGINE=uws, but uWebSockets.js does not load here: ${uws.reason}`);
  return { engine: nodeEngine, why: `uWS does not load on Node ${process.versions.node} here (${uws.reason})` };
}

/** The health routes' answers, the same on both engines: /healthz is the process, /readyz its dependencies too. */
export async function healthAnswer(path: '/healthz' | '/readyz', ready: () => Promise<boolean>): Promise<{ status: number; body: string }> {
  if (path === '/healthz') return { status: 200, body: '{"ok":true}' };
  const ok = await ready().catch(() => false);
  return { status: ok ? 200 : 503, body: JSON.stringify({ ok }) };
}
