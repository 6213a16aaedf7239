/**
 * One socket command, from its frame to its ack (docs/architecture.md "One message, end to end", step 2): the rate
 * limits, the payload's schema, the authorization table's anonymous rule, maintenance, then the command's handler
 * (commands.ts); one answer per command (a send may be answered from the log first: sent-acks.ts), counted and timed.
 * Apart from the server's set-up (gateway.ts), which hands every socket event here.
 */
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
} from '@ephemera/proto';
import {
  inSpan,
  SpanKind,
  validationError,
  errorBody,
  metrics,
  ServiceUnavailableError,
  type Logger,
  type RateLimits,
  COMMAND_LATENCY_BUCKETS,
  type MaintenanceState,
  SOCKET_EVENT_WRITES,
} from '@ephemera/platform';
import type { commandHandlers } from './commands.ts';
import type { GatewaySocket as Socket } from './socket-types.ts';
import type { SentAcks } from './sent-acks.ts';

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

export interface DispatchDeps {
  handlers: ReturnType<typeof commandHandlers>;
  limits: RateLimits;
  maintenance: MaintenanceState;
  sentAcks: SentAcks;
  logger: Logger;
}

/** The handler of every event a socket sends (socket.onAny). */
export function commandDispatcher(
  deps: DispatchDeps,
): (socket: Socket, event: string, args: unknown[]) => Promise<void> {
  const { handlers, limits, maintenance, sentAcks } = deps;
  return async function handle(socket: Socket, event: string, args: unknown[]): Promise<void> {
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
          deps.logger.warn({ event: name, reason: err.message, answered }, 'service unavailable');
        else if (!(err instanceof DomainError)) deps.logger.error({ err, event: name, answered }, 'command failed');
        answer(body, status >= 500 ? 'error' : 'refused');
      } finally {
        stopWaiting?.();
      }
    });
  };
}
