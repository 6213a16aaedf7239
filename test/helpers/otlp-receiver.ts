/**
 * The receiving side of OTLP/HTTP for traces (opentelemetry-proto, otlp.md "OTLP/HTTP"), JSON encoding: POST
 * /v1/traces with an ExportTraceServiceRequest body (gzip allowed), answered with an ExportTraceServiceResponse.
 * Each request is decoded against the message's JSON mapping (trace and span ids are hex, times are decimal
 * strings of nanoseconds); anything else gets the status the protocol names (404, 405, 415, 400). Tests read the
 * spans it received, each with the service.name of the resource that sent it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';

const AnyValue: z.ZodType<unknown> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    boolValue: z.boolean().optional(),
    intValue: z.union([z.string().regex(/^-?\d+$/), z.number().int()]).optional(),
    doubleValue: z.number().optional(),
    arrayValue: z.object({ values: z.array(AnyValue).optional() }).optional(),
    kvlistValue: z.object({ values: z.array(KeyValue).optional() }).optional(),
    bytesValue: z.string().optional(),
  }),
);
const KeyValue = z.object({ key: z.string(), value: AnyValue.optional() });
const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
const nanos = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]);

const SpanSchema = z
  .object({
    traceId: hex(16),
    spanId: hex(8),
    parentSpanId: z.union([hex(8), z.literal('')]).optional(),
    traceState: z.string().optional(),
    name: z.string().min(1),
    kind: z.number().int().min(0).max(5).optional(),
    startTimeUnixNano: nanos,
    endTimeUnixNano: nanos,
    attributes: z.array(KeyValue).optional(),
    droppedAttributesCount: z.number().optional(),
    events: z
      .array(
        z.object({ timeUnixNano: nanos, name: z.string(), attributes: z.array(KeyValue).optional() }).passthrough(),
      )
      .optional(),
    links: z.array(z.object({ traceId: hex(16), spanId: hex(8) }).passthrough()).optional(),
    status: z.object({ code: z.number().int().min(0).max(2).optional(), message: z.string().optional() }).optional(),
    flags: z.number().optional(),
  })
  .passthrough();

export const ExportTraceServiceRequestSchema = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z
          .object({ attributes: z.array(KeyValue).optional(), droppedAttributesCount: z.number().optional() })
          .optional(),
        scopeSpans: z
          .array(
            z.object({
              scope: z.object({ name: z.string().optional(), version: z.string().optional() }).passthrough().optional(),
              spans: z.array(SpanSchema).optional(),
              schemaUrl: z.string().optional(),
            }),
          )
          .optional(),
        schemaUrl: z.string().optional(),
      }),
    )
    .optional(),
});

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  requests: number;
  stop(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const state = { spans: [] as ReceivedSpan[], requests: 0 };
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: object) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if ((req.url ?? '').split('?')[0] !== '/v1/traces') return answer(404, { code: 5, message: 'not found' });
    if (req.method !== 'POST') return answer(405, { code: 12, message: 'POST only' });
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return answer(415, { code: 3, message: 'JSON encoding only' });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const parsed = ExportTraceServiceRequestSchema.safeParse(JSON.parse(body.toString('utf8')));
        if (!parsed.success) return answer(400, { code: 3, message: parsed.error.message });
        state.requests++;
        for (const rs of parsed.data.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value as
            { stringValue?: string } | undefined;
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              state.spans.push({
                service: service?.stringValue ?? 'unknown',
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                name: s.name,
              });
            }
          }
        }
        answer(200, {}); // ExportTraceServiceResponse: every span accepted (no partialSuccess)
      } catch (err) {
        answer(400, { code: 3, message: `undecodable body: ${(err as Error).message}` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get spans() {
      return state.spans;
    },
    get requests() {
      return state.requests;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
