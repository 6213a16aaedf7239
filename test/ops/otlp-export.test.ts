/**
 * OTEL_TRACES_EXPORTER=otlp really exports: with the standard OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP
 * receiver (test/helpers/otlp-receiver.ts), one send-message produces spans from three processes (gateway 1 in
 * this process, the messaging service and gateway 2 as child processes) that all carry one trace id.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { C, S } from '@ephemera/proto';
import { startTelemetry, stopTelemetry } from '@ephemera/platform';
import { createRoom, joinRoom, socketJoin, request, next, clientId } from '../helpers/clients.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.ts';
import { startDistributedStack } from '../distributed/stack.ts';

let receiver: OtlpReceiver;
let stack: Awaited<ReturnType<typeof startDistributedStack>>;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // The standard variables, inherited by the child processes the stack starts; a short batch delay for the test.
  Object.assign(process.env, {
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '200',
  });
  startTelemetry('gateway-in-test', { exporter: 'otlp' });
  stack = await startDistributedStack({ messagingProcess: true });
});
afterAll(async () => {
  await stack?.stop();
  await stopTelemetry();
  await receiver?.stop();
});

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('OTLP trace export', () => {
  it('one send-message is one trace across three processes, received over OTLP/HTTP', async () => {
    const room = await createRoom(stack.urlA);
    const bob = await joinRoom(stack.urlB, room.workspaceId, 'bob');
    const a = await socketJoin(stack.urlA, room.workspaceId, 'alice', room.userToken);
    const b = await socketJoin(stack.urlB, room.workspaceId, 'bob', bob.userToken);
    const created = await request(a.socket, C.createChannel, {
      workspaceId: room.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    if (!created.success) throw new Error(created.message);

    const received = next(b.socket, S.message, (m) => m.content === 'exported');
    const ack = await request(a.socket, C.sendMessage, {
      clientMessageId: clientId(),
      channelId: created.channel.id,
      content: 'exported',
      type: 'text',
    });
    expect(ack.success).toBe(true);
    await received;

    const traceOf = () =>
      receiver.spans.filter((s) => s.name === 'socket send-message' && s.service === 'gateway-in-test').at(-1)?.traceId;
    const inTrace = () => receiver.spans.filter((s) => s.traceId === traceOf());
    await until(
      () =>
        Boolean(traceOf()) &&
        new Set(inTrace().map((s) => s.service)).size >= 3 &&
        inTrace().some((s) => s.service === 'gateway' && s.name === 'fan-out message.sent'),
    );
    const spans = inTrace();
    const by = (service: string) => spans.filter((s) => s.service === service).map((s) => s.name);
    expect(by('gateway-in-test')).toContain('socket send-message'); // gateway 1, this process
    expect(by('messaging')).toContain('POST /internal/send-message'); // messaging, a child process, over HTTP
    expect(by('messaging')).toContain('append message.sent'); // its durable append to Kafka
    expect(by('gateway')).toContain('fan-out message.sent'); // gateway 2, a child process, via Kafka
    // One tree: every span but the root names a parent that is in the trace.
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => !ids.has(s.parentSpanId))).toHaveLength(1);
    a.socket.close();
    b.socket.close();
  });

  it('the receiver refuses what is not an OTLP/HTTP JSON trace export', async () => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${receiver.url}/v1/traces`, { method: 'POST', headers: { 'content-type': type }, body });
    expect(
      (await post('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"xyz","spanId":"1","name":"a"}]}]}]}')).status,
    ).toBe(400);
    expect((await post('not json')).status).toBe(400);
    expect((await post('{}', 'application/x-protobuf')).status).toBe(415);
  });
});
