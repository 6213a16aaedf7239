/**
 * Logs carry trace ids (docs/decisions/2026-11-21-design-card.md "Invariants") even when no exporter is configured:
 * spans are recorded
 * with real ids and a log line written inside one names it.
 */
import { describe, it, expect } from 'vitest';
import { Writable } from 'node:stream';
import { startTelemetry, inSpan, SpanKind, traceHeaders, createLogger } from '@ephemera/platform';

startTelemetry('telemetry-test', { exporter: 'none' });

describe('telemetry with the default exporter (none)', () => {
  it('records spans with real ids, propagates them in headers and stamps them on log lines', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = createLogger('telemetry-test', 'info', sink);
    let traceId = '';
    let header = '';
    await inSpan('work', SpanKind.INTERNAL, async (span) => {
      traceId = span.spanContext().traceId;
      header = traceHeaders().traceparent ?? '';
      log.info('inside');
    });
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe('0'.repeat(32));
    expect(header).toContain(traceId);
    expect(JSON.parse(lines[0]!).traceId).toBe(traceId);
  });
});
