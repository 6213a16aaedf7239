/**
 * The gateway: Socket.IO on a websocket engine (engine/: uWebSockets.js where its binary loads, Node's HTTP server
 * with `ws` elsewhere), so the Socket.IO protocol the client expects runs on either. It authenticates connections
 * (join-workspace), validates every payload against proto, forwards commands, and fans events out. No domain logic
 * lives here.
 */
import { Server } from 'socket.io';
import {
  C,
  CLIENT_EVENTS,
  SOCKET_AUTHZ,
  authorize,
  DomainError,
  ERRORS,
  type ClientEventName,
  type ErrorBody,
  type ParsedClientPayload,
  type RoomApi,
  type MessagingApi,
  type PresenceApi,
} from '@ephemera/proto';
import {
  inSpan,
  SpanKind,
  validationError,
  errorBody,
  metrics,
  ServiceUnavailableError,
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
  COMMAND_LATENCY_BUCKETS,
  type RoomKeyring,
  MaintenanceState,
  SOCKET_EVENT_WRITES,
  type BodyHandoff,
} from '@ephemera/platform';
import { commandHandlers, stopTyping } from './commands.ts';
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

const commandsTotal = new metrics.Counter({
  name: 'gateway_commands_total',
  help: 'socket commands',
  labelNames: ['event', 'outcome'],
});
/**
 * What a client waits for: from the command's frame read to its ack written, by event, whatever the outcome (a
 * refusal is an answer too). send-message's is the server's part of the send-to-ack latency (the alert and the k6
 * bench read it); the ingress and the client's own time come on top.
 */
const commandDuration = new metrics.Histogram({
  name: 'gateway_command_duration_seconds',
  help: 'socket command latency, frame received to ack written, by event',
  labelNames: ['event'],
  buckets: COMMAND_LATENCY_BUCKETS,
});
/** Which answer acknowledged a send (sent-acks.ts): its message read from the log, or messaging's. Mostly `log` while
 * the gateway's consumer group keeps up; `messaging` grows when it lags (runbooks/consumer-lag.md). */
const sendAcks = new metrics.Counter({
  name: 'gateway_send_acks_total',
  help: 'acknowledged sends, by the answer that came first',
  labelNames: ['from'],
});
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
  const handlers = commandHandlers({ ...opts, calls });
  const sentAcks = new SentAcks();
  // While maintenance is on, the events that change state are refused (SOCKET_EVENT_WRITES); reads keep working.
  const maintenance =
    opts.maintenance ??
    (await MaintenanceState.start({ log: opts.log, processId: `gateway-${opts.gatewayId}`, logger: opts.logger }));
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

  async function handle(socket: Socket, event: string, args: unknown[]): Promise<void> {
    const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (a: unknown) => void) : () => {};
    if (!Object.hasOwn(CLIENT_EVENTS, event)) {
      commandsTotal.inc({ event: 'unknown', outcome: 'refused' });
      return ack({ success: false, code: 'UNKNOWN_EVENT', message: ERRORS.UNKNOWN_EVENT } satisfies ErrorBody);
    }
    const name = event as ClientEventName;
    const started = performance.now();
    // One answer per command: a send may be answered from the log before messaging's own answer comes (sent-acks.ts).
    let answered = false;
    const answer = (body: object, outcome: 'ok' | 'refused' | 'error') => {
      if (answered) return;
      answered = true;
      commandsTotal.inc({ event: name, outcome });
      ack(body);
      commandDuration.observe({ event: name }, (performance.now() - started) / 1000);
    };
    await inSpan(`socket ${name}`, SpanKind.SERVER, async () => {
      let stopWaiting: (() => void) | undefined;
      try {
        const session = socket.data.session;
        // Rate limits before any work: every command of a user (an anonymous socket counts on its own), and
        // sends in a tighter bucket of their own. A send's two buckets are asked at once: one Redis round trip on
        // the path to its ack, not two (a send refused by one bucket still counts in the other).
        const limited = limits.consume('eventsPerUser', session ? `u:${session.userId}` : `s:${socket.id}`);
        await (name === C.sendMessage && session
          ? Promise.all([limited, limits.consume('messagesPerUser', session.userId)])
          : limited);
        const parsed = CLIENT_EVENTS[name].safeParse(args[0]);
        if (!parsed.success) throw validationError(parsed.error);
        // The authorization table: a socket that has not joined (or whose session was revoked) is anonymous.
        if (!session && name !== C.joinWorkspace) authorize(SOCKET_AUTHZ[name], 'anonymous');
        if (SOCKET_EVENT_WRITES[name]) maintenance.refuseWrites();
        if (name === C.sendMessage && session) {
          const { clientMessageId } = parsed.data as ParsedClientPayload<typeof C.sendMessage>;
          stopWaiting = sentAcks.expect({ ...session, clientMessageId }, (message) => {
            answer({ success: true, message }, 'ok');
            sendAcks.inc({ from: 'log' });
          });
        }
        const data = await (handlers[name] as (s: Socket, p: unknown, a: typeof session) => Promise<object>)(
          socket,
          parsed.data,
          session,
        );
        if (name === C.sendMessage && !answered) sendAcks.inc({ from: 'messaging' });
        answer({ success: true, ...data }, 'ok');
      } catch (err) {
        const { status, body } = errorBody(err);
        // A service restarting is expected (the client retries); anything else unexpected is logged in full. After
        // an ack from the log the send is durable whatever messaging said (a retry finds it stored).
        if (err instanceof ServiceUnavailableError)
          opts.logger.warn({ event: name, reason: err.message, answered }, 'service unavailable');
        else if (!(err instanceof DomainError)) opts.logger.error({ err, event: name, answered }, 'command failed');
        answer(body, status >= 500 ? 'error' : 'refused');
      } finally {
        stopWaiting?.();
      }
    });
  }

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
