/**
 * OpenTelemetry: one client action is one trace across services. Context crosses HTTP (traceparent header,
 * service-client.ts) and the event log (record headers + the envelope's trace field). No auto-instrumentation:
 * we open spans at the few places that matter (socket command, service command, append, fan-out), which keeps
 * the hot path cheap.
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ConsoleSpanExporter, NoopSpanProcessor, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  context, propagation, trace, SpanKind, SpanStatusCode, type Context, type Span,
} from '@opentelemetry/api';

export { SpanKind };
let sdk: NodeSDK | null = null;

/** Start tracing for this process once. `spanProcessors` lets tests plug in an in-memory exporter. */
export function startTelemetry(serviceName: string, options: { exporter?: 'none' | 'console' | 'otlp'; spanProcessors?: SpanProcessor[] } = {}): void {
  if (sdk) return;
  // Always at least one processor: with none, NodeSDK registers no tracer provider, spans are not recorded and
  // logs carry all-zero trace ids. 'none' records spans (ids for logs and propagation) and exports nothing.
  const processors = options.spanProcessors
    ?? [options.exporter === 'console' ? new SimpleSpanProcessor(new ConsoleSpanExporter()) : new NoopSpanProcessor()];
  // Explicit empty metric readers and log processors: otherwise NodeSDK starts OTLP exporters from its defaults,
  // pointing at a collector that is not there (metrics are served by prom-client on /metrics).
  sdk = new NodeSDK({ serviceName, spanProcessors: processors, metricReaders: [], logRecordProcessors: [], instrumentations: [] });
  sdk.start();
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown().catch(() => {});
  sdk = null;
}

const tracer = () => trace.getTracer('ephemera');

/** Headers carrying the active trace context (traceparent, tracestate). */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The context described by incoming headers (HTTP or event-log record). */
export function contextFrom(headers: Record<string, string | string[] | undefined> | undefined): Context {
  if (!headers) return context.active();
  return propagation.extract(context.active(), headers);
}

/** Run fn inside a new span (child of `parent` or the active context); records errors and ends the span. */
export async function inSpan<T>(name: string, kind: SpanKind, fn: (span: Span) => Promise<T>, parent?: Context, attributes?: Record<string, string | number>): Promise<T> {
  const span = tracer().startSpan(name, { kind, attributes }, parent ?? context.active());
  return context.with(trace.setSpan(parent ?? context.active(), span), async () => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}
