/**
 * The metrics the alerts read (charts/ephemera/files/prometheus), scraped from the metrics listeners of a running
 * distributed stack: the gateway's connected-sockets gauge follows connections, the HTTP latency histogram counts
 * public and internal routes by pattern and status class (never an id in a label), the socket commands' and the
 * send stages' latency histograms count what was done, and every consumer group of the services reports its lag.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import { C } from '@ephemera/proto';
import { connect, createRoom, http, socketJoin, request, clientId } from '../helpers/clients.ts';
import { startDistributedStack } from '../distributed/stack.ts';

let stack: Awaited<ReturnType<typeof startDistributedStack>>;
beforeAll(async () => {
  stack = await startDistributedStack({ metrics: true });
});
afterAll(async () => {
  await stack?.stop();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format, the lines this test needs (no escaped quotes in our label values). */
async function scrape(port: number): Promise<Sample[]> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`unparsable metrics line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[k!] = v!;
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sum = (samples: Sample[], name: string, match: Record<string, string | RegExp> = {}) =>
  samples
    .filter(
      (s) =>
        s.name === name &&
        Object.entries(match).every(([k, v]) =>
          typeof v === 'string' ? s.labels[k] === v : v.test(s.labels[k] ?? ''),
        ),
    )
    .reduce((n, s) => n + s.value, 0);

describe('service metrics on METRICS_PORT', () => {
  it('gateway_connected_sockets follows sockets connecting and leaving', async () => {
    const port = stack.metricsPorts[0]!;
    const before = sum(await scrape(port), 'gateway_connected_sockets');
    const sockets: Socket[] = await Promise.all([1, 2, 3].map(() => connect(stack.urlA)));
    await waitFor(async () => sum(await scrape(port), 'gateway_connected_sockets') === before + 3);
    for (const s of sockets) s.close();
    await waitFor(async () => sum(await scrape(port), 'gateway_connected_sockets') === before);
  });

  it('http_request_duration_seconds counts public and internal routes by pattern and status class', async () => {
    const port = stack.metricsPorts[1]!;
    const created = 'http_request_duration_seconds_count';
    const before = await scrape(port);
    const room = await createRoom(stack.urlA);
    const refused = await http(stack.urlA, '/api/workspaces/not-a-room/join', { body: { username: 'x' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const alice = await socketJoin(stack.urlA, room.workspaceId, 'alice', room.userToken); // POST /internal/authenticate
    const channel = await request(alice.socket, C.createChannel, {
      workspaceId: room.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    if (!channel.success) throw new Error(channel.message);
    const sent = await request(alice.socket, C.sendMessage, {
      clientMessageId: clientId(),
      channelId: channel.channel.id,
      content: 'measured',
      type: 'text',
    });
    expect(sent.success).toBe(true);
    alice.socket.close();

    const after = await scrape(port);
    const grew = (match: Record<string, string | RegExp>) => sum(after, created, match) - sum(before, created, match);
    expect(grew({ method: 'POST', route: '/api/workspaces', status_class: '2xx' })).toBe(1);
    expect(grew({ method: 'POST', route: '/api/workspaces/:id/join', status_class: '4xx' })).toBe(1);
    expect(grew({ method: 'POST', route: /^\/internal\//, status_class: '2xx' })).toBeGreaterThanOrEqual(2);
    // Bounded labels: no room id, room name or token ends up in a series.
    const labelValues = after
      .filter((s) => s.name.startsWith('http_request_duration_seconds'))
      .flatMap((s) => Object.values(s.labels));
    for (const secret of [room.workspaceId, room.name, room.userToken, 'not-a-room']) {
      expect(labelValues.some((v) => v.includes(secret))).toBe(false);
    }
    // Buckets come with it (the p99 alert reads them).
    expect(after.some((s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.le === '0.5')).toBe(true);
  });

  it("gateway_command_duration_seconds times every socket command by event, refused ones too; messaging_send_stage_seconds times a send's stages", async () => {
    // gateway 1, room and messaging run in this process here: one registry, served by gateway 1's metrics listener
    const port = stack.metricsPorts[0]!;
    const before = await scrape(port);
    const room = await createRoom(stack.urlA);
    const alice = await socketJoin(stack.urlA, room.workspaceId, 'alice', room.userToken);
    const channel = await request(alice.socket, C.createChannel, {
      workspaceId: room.workspaceId,
      name: 'timed',
      type: 'topic',
      isPrivate: false,
    });
    if (!channel.success) throw new Error(channel.message);
    for (let i = 0; i < 3; i++) {
      const sent = await request(alice.socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: channel.channel.id,
        content: `timed ${i}`,
        type: 'text',
      });
      expect(sent.success).toBe(true);
    }
    const refused = await request(alice.socket, C.sendMessage, {
      clientMessageId: clientId(),
      channelId: 'no-such-channel',
      content: 'x',
      type: 'text',
    });
    expect(refused.success).toBe(false);
    alice.socket.close();

    const after = await scrape(port);
    const grew = (name: string, match: Record<string, string>) => sum(after, name, match) - sum(before, name, match);
    expect(grew('gateway_command_duration_seconds_count', { event: C.sendMessage })).toBe(4);
    expect(grew('gateway_command_duration_seconds_count', { event: C.createChannel })).toBe(1);
    // every observation lands in some bucket; the send-to-ack target (20 ms) is a bucket bound of its own
    expect(grew('gateway_command_duration_seconds_bucket', { event: C.sendMessage, le: '+Inf' })).toBe(4);
    expect(after.some((s) => s.name === 'gateway_command_duration_seconds_bucket' && s.labels.le === '0.02')).toBe(
      true,
    );
    expect(grew('gateway_command_duration_seconds_sum', { event: C.sendMessage })).toBeGreaterThan(0);
    // the refused send never reached a batch's append: 3 sends queued, at least one batch checked, appended, applied
    expect(grew('messaging_send_stage_seconds_count', { stage: 'queued' })).toBe(4);
    for (const stage of ['checks', 'append', 'apply']) {
      expect(grew('messaging_send_stage_seconds_count', { stage })).toBeGreaterThanOrEqual(1);
    }
    expect(grew('messaging_send_stage_seconds_count', { stage: 'append' })).toBeLessThanOrEqual(3);
  });

  it('every consumer group of the services reports its lag, 0 at rest', async () => {
    const port = stack.metricsPorts[0]!;
    await waitFor(async () => {
      const lag = (await scrape(port)).filter((s) => s.name === 'ephemera_consumer_lag_records');
      return lag.length > 0 && lag.every((s) => s.value === 0);
    });
    const groups = new Set(
      (await scrape(port)).filter((s) => s.name === 'ephemera_consumer_lag_records').map((s) => s.labels.group),
    );
    expect(groups.size).toBeGreaterThanOrEqual(2); // the gateway's fan-out and the room service's projection at least
  });
});
