/** JSON logs (pino) carrying the active trace id, so a log line can be found from a trace and back. */
import { pino, type Logger, type DestinationStream } from 'pino';
import { trace } from '@opentelemetry/api';

export type { Logger };

/**
 * Fields that may carry what a room says or a secret (docs/crypto.md: logs never contain message content or
 * passwords), at any of the first three levels of a log object. PostgreSQL errors name the offending values in
 * `detail` (a unique violation shows the key), so that goes too.
 */
const SECRET_FIELDS = [
  'content',
  'newContent',
  'password',
  'passwordHash',
  'userToken',
  'token',
  'username',
  'profilePicture',
  'sealed',
  'quote',
];
export const REDACTED_PATHS = [
  ...SECRET_FIELDS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
  'err.detail',
  'err.where',
  '*.err.detail',
  'err.cause.detail',
  'headers.authorization',
  '*.headers.authorization',
];

export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        return { traceId, spanId };
      },
    },
    destination,
  );
}
