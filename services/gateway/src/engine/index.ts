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
import { loadUws, uwsEngine } from './uws.ts';
import { nodeEngine } from './node.ts';
import type { EngineChoice, GatewayEngine } from './port.ts';

export type { EngineName, EngineChoice, EngineOptions, RunningEngine, GatewayEngine } from './port.ts';

/** The engine GATEWAY_ENGINE asks for, and why it is that one (logged at start). */
export function chooseEngine(wanted: EngineChoice = 'auto'): { engine: GatewayEngine; why: string } {
  if (wanted === 'node') return { engine: nodeEngine, why: 'GATEWAY_ENGINE=node' };
  const uws = loadUws();
  if ('uws' in uws)
    return { engine: uwsEngine(uws.uws), why: `uWS ${uws.from} loads on Node ${process.versions.node}` };
  if (wanted === 'uws') throw new Error(`GATEWAY_ENGINE=uws, but uWebSockets.js does not load here: ${uws.reason}`);
  return { engine: nodeEngine, why: `uWS does not load on Node ${process.versions.node} here (${uws.reason})` };
}
