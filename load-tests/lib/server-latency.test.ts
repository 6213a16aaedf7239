import { describe, expect, it } from 'vitest';
import { bucketDelta, bucketQuantile, parseCommandBuckets, serverLatencyLine } from './server-latency.ts';

const exposition = (n: [number, number, number], m: [number, number, number]) => `
# HELP gateway_command_duration_seconds socket command latency
# TYPE gateway_command_duration_seconds histogram
gateway_command_duration_seconds_bucket{le="0.005",event="send-message",service="gateway"} ${n[0]}
gateway_command_duration_seconds_bucket{le="0.02",event="send-message",service="gateway"} ${n[1]}
gateway_command_duration_seconds_bucket{le="+Inf",event="send-message",service="gateway"} ${n[2]}
gateway_command_duration_seconds_sum{event="send-message",service="gateway"} 1.5
gateway_command_duration_seconds_count{event="send-message",service="gateway"} ${n[2]}
gateway_command_duration_seconds_bucket{le="0.005",event="join-workspace",service="gateway"} ${m[0]}
gateway_command_duration_seconds_bucket{le="0.02",event="join-workspace",service="gateway"} ${m[1]}
gateway_command_duration_seconds_bucket{le="+Inf",event="join-workspace",service="gateway"} ${m[2]}
`;

describe("server-side command latency from the gateways' histograms", () => {
  it("reads one event's cumulative buckets, summing targets, and takes the scenario's difference", () => {
    const before = parseCommandBuckets(exposition([10, 20, 20], [0, 0, 5]), 'send-message');
    expect([...before]).toEqual([
      [0.005, 10],
      [0.02, 20],
      [Infinity, 20],
    ]);
    const after = parseCommandBuckets(exposition([60, 115, 120], [0, 0, 9]), 'send-message');
    const delta = bucketDelta(before, after);
    expect([...delta]).toEqual([
      [0.005, 50],
      [0.02, 95],
      [Infinity, 100],
    ]);
  });

  it('interpolates quantiles inside a bucket as histogram_quantile does', () => {
    const delta = new Map([
      [0.005, 50],
      [0.02, 95],
      [Infinity, 100],
    ]);
    expect(bucketQuantile(delta, 0.5)).toBeCloseTo(0.005, 9); // the 50th of 100 is the first bucket's top
    expect(bucketQuantile(delta, 0.9)).toBeCloseTo(0.005 + 0.015 * (40 / 45), 9);
    expect(bucketQuantile(delta, 0.99)).toBe(0.02); // in +Inf: the last finite bound
    expect(
      bucketQuantile(
        new Map([
          [0.005, 0],
          [Infinity, 0],
        ]),
        0.99,
      ),
    ).toBeNull();
    const line = serverLatencyLine('send-message', delta, ['http://127.0.0.1:1/metrics']);
    expect(line).toContain('100 commands, p50 5.0 ms, p99 20.0 ms');
    expect(line).toContain('not scraped: http://127.0.0.1:1/metrics');
  });
});
