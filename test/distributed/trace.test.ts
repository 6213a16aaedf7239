/**
 * One client action is one trace (docs/decisions/2026-11-21-design-card.md "Invariants"): a message sent on gateway 1
 * produces spans in
 * the gateway, the messaging service (over HTTP), the Kafka append and the fan-out on both gateway replicas, all
 * with one trace id. Spans are collected with an in-memory exporter in this test process.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { C, S } from '@ephemera/proto';
import { startTelemetry } from '@ephemera/platform';
import { createRoom, joinRoom, socketJoin, request, next, clientId } from '../helpers/clients.ts';
import { waitFor } from '../suites/journey.suite.ts';
import { startDistributedStack } from './stack.ts';

const exporter = new InMemorySpanExporter();
startTelemetry('trace-test', { spanProcessors: [new SimpleSpanProcessor(exporter)] });

let stack: Awaited<ReturnType<typeof startDistributedStack>>;
beforeAll(async () => {
  stack = await startDistributedStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('tracing', () => {
  it('a sent message is one trace across gateway, messaging, Kafka and the fan-out', async () => {
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
    exporter.reset();

    const received = next(b.socket, S.message, (m) => m.content === 'traced');
    const ack = await request(a.socket, C.sendMessage, {
      clientMessageId: clientId(),
      channelId: created.channel.id,
      content: 'traced',
      type: 'text',
    });
    expect(ack.success).toBe(true);
    await received;

    const root = () => exporter.getFinishedSpans().find((s) => s.name === 'socket send-message');
    await waitFor(
      () =>
        Boolean(root()) &&
        exporter
          .getFinishedSpans()
          .some((s) => s.name === 'fan-out message.sent' && s.spanContext().traceId === root()!.spanContext().traceId),
    );
    const traceId = root()!.spanContext().traceId;
    const names = exporter
      .getFinishedSpans()
      .filter((s) => s.spanContext().traceId === traceId)
      .map((s) => s.name);
    expect(names).toContain('socket send-message'); // gateway 1 receives the command
    expect(names).toContain('POST /internal/send-message'); // messaging service, over HTTP
    expect(names).toContain('append message.sent'); // durable append to Kafka
    expect(names).toContain('fan-out message.sent'); // the fan-out on gateway 1 (gateway 2 is another process)
    a.socket.close();
    b.socket.close();
  });
});
