/**
 * The gateway: Socket.IO on a websocket engine (engine/: uWebSockets.js where its binary loads, Node's HTTP server
 * with `ws` elsewhere), so the Socket.IO protocol the client expects runs on either. It authenticates connections
 * (join-workspace), validates every payload against proto, forwards commands, and fans events out. No domain logic
 * lives here.
 */
import { Server } from 'socket.io';
import type { RoomApi, MessagingApi, PresenceApi } from '@ephemera/proto';
import {
  errorBody,
  metrics,
  type EphemeralStore,
  type EventLog,
  type Logger,
  createRateLimits,
  clientAddress,
  fromTrustedProxy,
  trustProxy,
  startMetricsServer,
  startDefaultMetrics,
  type RateLimits,
  type RoomKeyring,
  MaintenanceState,
  type BodyHandoff,
} from '@ephemera/platform';
import { commandHandlers, stopTyping } from './commands.ts';
import { commandDispatcher } from './dispatch.ts';
import type { GatewayServer, GatewaySocket as Socket } from './socket-types.ts';
import { startFanout } from './fanout.ts';
import { SealedPresence } from './sealed-presence.ts';
import { SentAcks } from './sent-acks.ts';
import type { BigRoomOptions } from './coalesce.ts';
import { presenceHeartbeat } from './presence-heartbeat.ts';
import { chooseEngine, type EngineChoice, type EngineName } from './engine/index.ts';
import { originAllowed } from './origin.ts';
import { Calls, type CallOptions } from './calls.ts';
import { callOptionsFromEnv } from './config.ts';
import './engine-io-ping-grid.ts'; // idle sockets' pings share one wakeup a second (see the file)

export interface GatewayOptions {
  port: number;
  host?: string;
  gatewayId: string;
  rooms: RoomApi;
  messaging: MessagingApi;
  presence: PresenceApi;
  /** room keys: usernames are sealed before they reach the presence store and opened on the way back */
  keyring: RoomKeyring;
  log: EventLog;
  bus: EphemeralStore;
  logger: Logger;
  allowedOrigins: string[];
  /** embedded mode: every non-socket HTTP request goes to this origin (the express app) */
  httpUpstream?: string;
  /** embedded mode: uploads' bodies go to the express app in-process (its file router takes them), not over loopback */
  bodyHandoff?: BodyHandoff;
  ready?: () => Promise<boolean>;
  /** shared rate limits (Redis when distributed); default: this process's memory with the configured limits */
  limits?: RateLimits;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-For / X-Forwarded-Host are believed (the ingress) */
  trustedProxies?: string[];
  /** Prometheus /metrics on its own listener (METRICS_PORT), never on the public port; absent: not served */
  metrics?: { port: number; host?: string };
  /** calls: ring timeout and ICE servers (default: CALL_RING_TIMEOUT_MS, STUN_URLS, TURN_* from the environment) */
  calls?: Partial<CallOptions>;
  /** maintenance mode (embedded: the process's one state); absent: the gateway follows the admin topic itself */
  maintenance?: MaintenanceState;
  /** GATEWAY_ENGINE: auto (uWS where it loads, else node), uws (or refuse to start), node (engine/index.ts) */
  engine?: EngineChoice;
  /** big rooms' thresholds (default proto's BIG_ROOM; coalesce.ts): tests lower them to reach them with a few users */
  bigRoom?: Partial<BigRoomOptions>;
}

export interface Gateway {
  port: number;
  metricsPort?: number;
  io: GatewayServer;
  engine: EngineName;
  stop(): Promise<void>;
}

/** Socket.IO servers of this process, counted when /metrics is scraped (no bookkeeping per connect). */
const servers = new Set<GatewayServer>();
new metrics.Gauge({
  name: 'gateway_connected_sockets',
  help: 'Socket.IO connections currently open on this gateway (joined or not)',
  collect() {
    this.set([...servers].reduce((n, io) => n + io.of('/').sockets.size, 0));
  },
});

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  // Every presence call of this gateway seals names first (sealed-presence.ts); the fan-out opens presence signals.
  const sealedPresence = new SealedPresence(options.presence, options.keyring);
  const opts: GatewayOptions = { ...options, presence: sealedPresence };
  startDefaultMetrics('gateway'); // process CPU, memory and event-loop delay, like every service (no-op if started)
  const { engine, why } = chooseEngine(opts.engine);
  const limits = opts.limits ?? createRateLimits();
  const trust = trustProxy(opts.trustedProxies ?? []);
  const io: GatewayServer = new Server({
    path: '/socket.io/',
    serveClient: false,
    maxHttpBufferSize: 64 * 1024, // files go over HTTP; a chat payload is small (docs/product/security.md S10)
    // Engine.IO's keep-alive: a ping every 40 s (Socket.IO's default is 25 s; engine-io-ping-grid.ts rounds each up
    // to the next second, so idle sockets share wakeups), an answer within 20 s. Idle sockets cost a gateway little
    // else: 500 of them made 20 pings and 20 pongs a second, most of an idle replica's 1.3 % of a core (the target
    // is under 1 %: docs/product/performance.md PF16). A socket that vanished without closing is noticed within 61 s
    // instead of 45, and proxies' usual 60 s idle timeouts (nginx, ingress-nginx, cloud load balancers) still see
    // traffic in time.
    pingInterval: 40_000,
    pingTimeout: 20_000,
    allowRequest: (req, callback) => {
      // uWS's request stand-in has only `connection`; Node's has both
      const peer = (req as { connection?: { remoteAddress?: string } }).connection?.remoteAddress ?? '';
      callback(
        null,
        originAllowed(req.headers, opts.allowedOrigins, { fromTrustedProxy: fromTrustedProxy(peer, trust) }),
      );
    },
  });
  // New connections per client address (docs/product/security.md S6), refused before the socket can do anything; the
  // client's connect_error carries the RATE_LIMITED body.
  io.use((socket, next) => {
    const address = clientAddress(
      socket.conn.remoteAddress ?? socket.handshake.address ?? '',
      socket.handshake.headers,
      trust,
    );
    limits.consume('connectionsPerAddress', address).then(
      () => next(),
      (err) => {
        const { body } = errorBody(err);
        next(Object.assign(new Error(body.message), { data: body }));
      },
    );
  });

  const calls = new Calls(io, {
    rooms: opts.rooms,
    store: opts.bus,
    keyring: opts.keyring,
    logger: opts.logger,
    log: opts.log,
    options: { ...callOptionsFromEnv(), ...opts.calls },
  });
  await calls.start();
  const sentAcks = new SentAcks();
  // While maintenance is on, the events that change state are refused (SOCKET_EVENT_WRITES); reads keep working.
  const maintenance =
    opts.maintenance ??
    (await MaintenanceState.start({ log: opts.log, processId: `gateway-${opts.gatewayId}`, logger: opts.logger }));
  const handle = commandDispatcher({
    handlers: commandHandlers({ ...opts, calls }),
    limits,
    maintenance,
    sentAcks,
    logger: opts.logger,
  });
  io.on('connection', (socket: Socket) => {
    socket.data.session = null;
    socket.onAny((event: string, ...args: unknown[]) => {
      void handle(socket, event, args);
    });
    socket.on('disconnect', () => {
      const session = socket.data.session;
      calls
        .socketGone(socket, session?.userId ?? null)
        .catch((err) => opts.logger.warn({ err }, 'call end on disconnect failed'));
      if (session) {
        stopTyping(socket, session, opts.presence).catch((err) => opts.logger.warn({ err }, 'typing stop failed'));
        opts.presence
          .disconnect({ workspaceId: session.workspaceId, userId: session.userId, connectionId: socket.id })
          .catch((err) => opts.logger.warn({ err }, 'presence disconnect failed'));
      }
    });
  });

  const fanout = await startFanout(io, {
    ...opts,
    calls,
    sentAcks,
    openPresenceSignal: (s) => sealedPresence.openSignal(s),
  });
  servers.add(io);
  // A taken metrics port must not take the chat down with it: logged, and the gateway serves on.
  const metricsServer = opts.metrics
    ? await startMetricsServer(opts.metrics).catch((err) => {
        opts.logger.error({ err }, 'metrics listener failed: /metrics not served');
        return null;
      })
    : null;

  const heartbeat = presenceHeartbeat(io, opts);

  // Liveness and readiness on the public port; every other HTTP request to the upstream (embedded), or 404. The
  // upstream learns the client's address (X-Forwarded-For) as the trusted-proxy rule gives it.
  const server = await engine.start({
    host: opts.host ?? '0.0.0.0',
    port: opts.port,
    io,
    ready: opts.ready ?? (async () => true),
    upstream: opts.httpUpstream,
    handoff: opts.bodyHandoff,
    addressOf: (peer, headers) => clientAddress(peer, headers, trust),
    // Stickiness for the polling transport behind the ingress: the cookie names the replica that holds the session.
    attached: (attachedIo) =>
      attachedIo.engine.on('initial_headers', (headers: Record<string, string>) => {
        headers['set-cookie'] =
          `ephemera_gw=${encodeURIComponent(opts.gatewayId)}; Path=/socket.io/; HttpOnly; SameSite=Lax`;
      }),
  });
  opts.logger.info({ engine: engine.name, why, node: process.versions.node }, `gateway engine: ${engine.name}`);
  const port = server.port;

  return {
    port,
    metricsPort: metricsServer?.port,
    io,
    engine: engine.name,
    async stop() {
      servers.delete(io);
      heartbeat.stop();
      await calls.stop();
      await metricsServer?.stop();
      await fanout.stop();
      if (!opts.maintenance) await maintenance.stop();
      io.disconnectSockets(true);
      await server.close();
    },
  };
}
