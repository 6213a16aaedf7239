/**
 * OpenTelemetry: one client action is one trace across services. Context crosses HTTP (traceparent header,
 * service-client.ts) and the event log (record headers + the envelope's trace field). No auto-instrumentation:
 * we open spans at the few places that matter (socket command, service command, append, fan-out), which keeps
 * the hot path cheap.
 *
 * Export (OTEL_TRACES_EXPORTER): none (spans are recorded for ids in logs and propagation, never sent), console,
 * or otlp: OTLP over HTTP with JSON bodies to the collector named by the standard variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is; _HEADERS, _TIMEOUT),
 * batched by a BatchSpanProcessor (OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_MAX_QUEUE_SIZE...), so a slow or absent
 * collector costs a bounded queue, never a request. The batch is flushed when the process stops (stopTelemetry).
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NoopSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { context, propagation, trace, SpanKind, SpanStatusCode, type Context, type Span } from '@opentelemetry/api';

export { SpanKind };
let sdk: NodeSDK | null = null;

/** Start tracing for this process once. `spanProcessors` lets tests plug in an in-memory exporter. */
export function startTelemetry(
  serviceName: string,
  options: { exporter?: 'none' | 'console' | 'otlp'; spanProcessors?: SpanProcessor[] } = {},
): void {
  if (sdk) return;
  // Always at least one processor: with none, NodeSDK registers no tracer provider and logs carry all-zero trace
  // ids. 'none' exports nothing, so it does not record either: its spans are non-recording (real trace and span
  // ids for logs and propagation, no attributes, events or timings kept), unless a caller's traceparent says
  // sampled (a process that exports upstream), which is passed on. Recording spans only to drop them cost a few
  // percent of every service's CPU per command.
  const exporter = options.exporter ?? 'none';
  const processors = options.spanProcessors ?? [processorFor(exporter)];
  const sampler =
    exporter === 'none' && !options.spanProcessors
      ? new ParentBasedSampler({ root: new AlwaysOffSampler() })
      : undefined;
  // Explicit empty metric readers and log processors: otherwise NodeSDK starts OTLP exporters from its defaults,
  // pointing at a collector that is not there (metrics are served by prom-client on /metrics).
  sdk = new NodeSDK({
    serviceName,
    spanProcessors: processors,
    sampler,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
}

function processorFor(exporter: 'none' | 'console' | 'otlp'): SpanProcessor {
  // The OTLP exporter reads its endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables itself.
  if (exporter === 'otlp') return new BatchSpanProcessor(new OTLPTraceExporter());
  if (exporter === 'console') return new SimpleSpanProcessor(new ConsoleSpanExporter());
  return new NoopSpanProcessor();
}

/** Flush buffered spans (OTLP batches) and stop tracing; called when the process stops. */
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
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  fn: (span: Span) => Promise<T>,
  parent?: Context,
  attributes?: Record<string, string | number>,
): Promise<T> {
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
