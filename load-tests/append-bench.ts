/**
 * Kafka appends made at once (`npm run bench:appends`): what the log's group commit (platform/src/event-log/
 * append-groups.ts) buys when many rooms send together. Starts a broker of its own (deploy/local/infra.ts, as the
 * distributed stack runs it) and a KafkaEventLog as messaging uses it, then appends APPEND_BENCH_COUNT one-record
 * appends (a send batch of one message each, 50 rooms) with 1, 10 and 100 of them in flight, three repetitions each.
 * Prints appends/s, the append's latency (p50/p99, from the call to its answer) and the CPU of this process (kafkajs)
 * and of the broker per append, medians of the repetitions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TOPICS } from '@ephemera/proto';
import { KafkaEventLog } from '../services/platform/src/event-log/kafka.ts';
import { roomRecord } from '../services/platform/test/log-records.ts';
import { freePort, startKafka } from '../deploy/local/infra.ts';
import { median, percentileSorted, processTree, readProcStat, CLK_TCK } from './lib/stats.ts';

const COUNT = Number(process.env.APPEND_BENCH_COUNT ?? 5_000);
const REPS = 3;
const CONCURRENCY = [1, 10, 100];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-append-bench-'));
const kafka = await startKafka({ dataDir: dir, port: await freePort(), controllerPort: await freePort() });
const log = new KafkaEventLog({ brokers: kafka.brokers, clientId: 'append-bench', partitions: 4 });
/** CPU ticks of this process, and of the broker's JVM (the java process under our pid) */
const cpu = () => ({
  self: readProcStat(process.pid)?.cpuTicks ?? 0,
  broker: processTree(process.pid)
    .filter((p) => p.comm === 'java')
    .reduce((n, p) => n + p.cpuTicks, 0),
});
try {
  await log.init([TOPICS.room]);
  let sequence = 0;
  interface Run {
    perSecond: number;
    p50: number;
    p99: number;
    selfUs: number;
    brokerUs: number;
  }
  const appendAll = async (inFlight: number): Promise<Run> => {
    const latencies: number[] = [];
    let next = 0;
    const before = cpu();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < COUNT) {
          next += 1;
          const record = roomRecord(`room-${next % 50}`, ++sequence);
          const at = performance.now();
          await log.append([record]);
          latencies.push(performance.now() - at);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const after = cpu();
    latencies.sort((a, b) => a - b);
    const usPerAppend = (ticks: number) => (ticks * 1e6) / CLK_TCK / COUNT;
    return {
      perSecond: COUNT / seconds,
      p50: percentileSorted(latencies, 50),
      p99: percentileSorted(latencies, 99),
      selfUs: usPerAppend(after.self - before.self),
      brokerUs: usPerAppend(after.broker - before.broker),
    };
  };
  await appendAll(10); // warm-up: connections, metadata, the JIT
  console.log(`Kafka appends: ${COUNT} one-record appends over 50 rooms per run, ${REPS} runs per level, medians`);
  for (const inFlight of CONCURRENCY) {
    const runs: Run[] = [];
    for (let r = 0; r < REPS; r++) runs.push(await appendAll(inFlight));
    const m = (f: (x: Run) => number) => median(runs.map(f));
    console.log(
      `  ${String(inFlight).padStart(3)} in flight: ${m((x) => x.perSecond)
        .toFixed(0)
        .padStart(6)} appends/s, ` +
        `latency p50 ${m((x) => x.p50).toFixed(2)} / p99 ${m((x) => x.p99).toFixed(2)} ms, ` +
        `CPU per append: kafkajs ${m((x) => x.selfUs).toFixed(0)} µs, broker ${m((x) => x.brokerUs).toFixed(0)} µs`,
    );
  }
} finally {
  await log.close();
  await kafka.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
