import { afterAll, describe, expect, it } from 'vitest';
import { startTelemetry, stopTelemetry, inSpan, SpanKind, traceHeaders, contextFrom } from '../src/telemetry.ts';

// OTEL_TRACES_EXPORTER=none (the default): nothing is exported, so nothing is recorded, but every span still has
// real ids for the logs and for propagation to the next service.
describe('telemetry without an exporter', () => {
  startTelemetry('telemetry-none-test');
  afterAll(() => stopTelemetry());

  it('spans are not recorded but carry real trace ids, passed on in traceparent', async () => {
    await inSpan('command', SpanKind.SERVER, async (span) => {
      expect(span.isRecording()).toBe(false);
      const { traceId, spanId } = span.spanContext();
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceId).not.toBe('0'.repeat(32));
      expect(traceHeaders().traceparent).toBe(`00-${traceId}-${spanId}-00`);
    });
  });

  it("a caller's trace continues: same trace id; a caller that samples (it exports) is followed", async () => {
    const parentTrace = 'ab'.repeat(16);
    await inSpan(
      'child',
      SpanKind.CONSUMER,
      async (span) => {
        expect(span.spanContext().traceId).toBe(parentTrace);
        expect(span.isRecording()).toBe(false);
      },
      contextFrom({ traceparent: `00-${parentTrace}-${'cd'.repeat(8)}-00` }),
    );
    await inSpan(
      'child',
      SpanKind.CONSUMER,
      async (span) => {
        expect(span.spanContext().traceId).toBe(parentTrace);
        expect(span.isRecording()).toBe(true);
        expect(traceHeaders().traceparent?.endsWith('-01')).toBe(true);
      },
      contextFrom({ traceparent: `00-${parentTrace}-${'cd'.repeat(8)}-01` }),
    );
  });
});
