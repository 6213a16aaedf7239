/** JSON logs (pino) carrying the active trace id, so a log line can be found from a trace and back. */
import { pino, type Logger, type DestinationStream } from 'pino';
import { trace } from '@opentelemetry/api';

export type { Logger };

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  return pino({
    level,
    base: { service },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { traceId, spanId };
    },
  }, destination);
}
