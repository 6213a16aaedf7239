/**
 * The websocket engine port (index.ts says what it is and chooses the adapter): what an adapter is given, what it
 * returns, and the health routes' answers that both adapters serve.
 */
import type { Server } from 'socket.io';
import type { BodyHandoff } from '@ephemera/platform';

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

export interface RunningEngine {
  port: number;
  close(): Promise<void>;
}

export interface GatewayEngine {
  name: EngineName;
  start(options: EngineOptions): Promise<RunningEngine>;
}

/** The health routes' answers, the same on both engines: /healthz is the process, /readyz its dependencies too. */
export async function healthAnswer(
  path: '/healthz' | '/readyz',
  ready: () => Promise<boolean>,
): Promise<{ status: number; body: string }> {
  if (path === '/healthz') return { status: 200, body: '{"ok":true}' };
  const ok = await ready().catch(() => false);
  return { status: ok ? 200 : 503, body: JSON.stringify({ ok }) };
}
