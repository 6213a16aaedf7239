/**
 * The gateway's presence heartbeat: every HEARTBEAT_MS it refreshes the connections this replica holds, so a
 * crashed replica's connections expire by themselves. Presence lives in Redis only; when Redis restarts it loses
 * every entry, and the heartbeat's answer names the connections it no longer holds: the gateway connects those
 * again (presence back without users reconnecting). A lost bus connection coming back triggers a heartbeat at once,
 * and a failed heartbeat is retried sooner, so presence returns within seconds of Redis, not at the next period.
 */
import type { GatewayServer as Server } from './socket-types.ts';
import type { PresenceApi } from '@ephemera/proto';
import type { EphemeralStore, Logger } from '@ephemera/platform';

export const HEARTBEAT_MS = 20_000;
const RETRY_MIN_MS = 500;

export function presenceHeartbeat(
  io: Server,
  opts: { gatewayId: string; presence: PresenceApi; bus: EphemeralStore; logger: Logger },
): { stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let stopped = false;
  let running = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void beat(), ms);
    timer.unref();
  };

  async function beat(): Promise<void> {
    if (running) return schedule(RETRY_MIN_MS);
    running = true;
    try {
      const sockets = new Map(
        [...io.of('/').sockets.values()].flatMap((s) => {
          const data = s.data;
          return data.session ? [[s.id, { socket: s, session: data.session, user: data.presenceUser }] as const] : [];
        }),
      );
      const connections = [...sockets.values()].map(({ socket, session }) => ({
        workspaceId: session.workspaceId,
        userId: session.userId,
        connectionId: socket.id,
      }));
      const { missing } = await opts.presence.heartbeat({ gatewayId: opts.gatewayId, connections });
      for (const connectionId of missing ?? []) {
        const held = sockets.get(connectionId);
        if (!held?.user || !held.socket.connected) continue;
        await opts.presence.connect({
          workspaceId: held.session.workspaceId,
          connectionId,
          gatewayId: opts.gatewayId,
          user: held.user,
        });
      }
      if (missing?.length)
        opts.logger.info({ reconnected: missing.length }, 'presence store had lost connections; connected them again');
      failures = 0;
      schedule(HEARTBEAT_MS);
    } catch (err) {
      failures++;
      opts.logger.warn({ err, failures }, 'presence heartbeat failed');
      schedule(Math.min(HEARTBEAT_MS, RETRY_MIN_MS * 2 ** (failures - 1)));
    } finally {
      running = false;
    }
  }

  opts.bus.onReconnect?.(() => schedule(RETRY_MIN_MS));
  schedule(HEARTBEAT_MS);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
