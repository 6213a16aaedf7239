/** What the bench prints: one line per step (its figures) and the summary at the end of a run. */
import type { StepFigures } from './step-figures.ts';
import type { Summary } from './summary.ts';

const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const k = (x: number) => (Number.isFinite(x) ? (x >= 1000 ? `${(x / 1000).toFixed(1)}k` : x.toFixed(0)) : '-');

export function stepLine(s: StepFigures): string {
  const ack = s.ackMs
    ? ` ack p50 ${f(s.ackMs.p50, 2)} p99 ${f(s.ackMs.p99, 2)}${s.ackErrors ? ` (${s.ackErrors} refused)` : ''}`
    : '';
  const procs =
    Object.keys(s.cpuUsPerDeliveryByProcess).length > 1
      ? ` [${Object.entries(s.cpuUsPerDeliveryByProcess)
          .map(([l, v]) => `${l} ${f(v, 2)}`)
          .join(', ')}]`
      : '';
  return (
    `  ${String(s.rate).padStart(4)}/s  deliv/s ${k(s.deliveriesPerS).padStart(6)} (offered ${k(s.offeredPerS)})` +
    `  ratio ${f(s.ratio, 4)}  e2e ms p50 ${f(s.e2eMs.p50, 2)} p95 ${f(s.e2eMs.p95, 2)} p99 ${f(s.e2eMs.p99, 2)} max ${f(s.e2eMs.max, 1)}` +
    `  fan-out p50 ${f(s.fanoutMs.p50, 1)}${ack}` +
    `  server ${f(s.serverCpuUsPerDelivery, 2)} µs/deliv (${f(s.serverCorePct, 0)}% core)${procs}` +
    `  gen ${f(s.genCpuUsPerDelivery, 2)} µs/deliv (${f(s.genCorePct, 0)}% core, ${f(s.genSysPct, 0)}% of it kernel)  others ${f(s.othersPct, 0)}%${s.othersPct > 50 ? ' NOISY' : ''}${s.drainTimedOut ? '  DRAIN TIMED OUT' : ''}`
  );
}

export function summaryText(s: Summary): string {
  const L: string[] = [];
  L.push(
    `Summary (capacity = highest deliveries/s with e2e p99 <= ${s.boundMs} ms and ratio 1.0; CPU at the common rate ${s.commonRate ?? '-'} sends/s)`,
  );
  L.push(
    `  ${'target'.padEnd(12)} ${'capacity deliv/s'.padStart(17)} ${'at rate'.padStart(8)} ${'server CPU-µs/deliv'.padStart(20)} ${'ack p99 ms'.padStart(11)} ${'joins/s'.padStart(8)}`,
  );
  for (const t of s.targets) {
    if (!t.ran) {
      L.push(`  ${t.target.padEnd(12)} NOT RUN: ${t.why?.split('\n')[0]}`);
      continue;
    }
    L.push(
      `  ${t.target.padEnd(12)} ${k(t.capacityDeliveriesPerS ?? NaN).padStart(17)} ${String(t.capacityAtRate ?? '-').padStart(8)} ${f(t.cpuUsPerDeliveryAtCommon ?? NaN, 2).padStart(20)} ${f(t.ackP99AtCommon ?? NaN, 2).padStart(11)} ${f(t.joinsPerS ?? NaN, 0).padStart(8)}`,
    );
    if (t.cpuByProcessAtCommon && Object.keys(t.cpuByProcessAtCommon).length > 1) {
      for (const [p, v] of Object.entries(t.cpuByProcessAtCommon))
        L.push(
          `      ${p.padEnd(24)} ${f(v.perDelivery, 3)} µs/delivery  ${f(v.perSent, 0).padStart(6)} µs/sent message (${f(v.perSentAboveIdle, 0)} above idle)`,
        );
    }
  }
  L.push('  ratios:');
  for (const [name, v] of Object.entries(s.ratios)) L.push(`    ${name.padEnd(48)} ${v === null ? '-' : v.toFixed(2)}`);
  const rows = Object.entries(s.cpuRatiosByRate);
  if (rows.length) {
    L.push(`  server CPU-µs/delivery ratio by rate (sends/s: ${Object.keys(rows[0][1]).join(', ')}):`);
    for (const [name, row] of rows)
      L.push(
        `    ${name.padEnd(16)} ${Object.values(row)
          .map((v) => (v === null ? '-' : v.toFixed(2)).padStart(6))
          .join(' ')}`,
      );
  }
  const b1IsFloor = s.targets.find((t) => t.target === 'b1')?.capacityIsFloor ?? false;
  const n = s.distributedNeeds;
  if (n) {
    L.push(
      `  what the distributed capacity target asks of this machine: ${n.fraction}x B1 = ${k(n.requiredPerS)} deliveries/s at ${f(n.serverUsPerDelivery, 1)} µs (every process of the stack) + ${f(n.genUsPerDelivery, 1)} µs (the generator) per delivery, as measured at its capacity step (${n.atRate} sends/s, the machine's cores ${f(n.machineBusyPct, 0)}% busy): ${f(n.coresNeeded, 1)} cores of CPU; this machine has ${n.cores}${n.coresNeeded > n.cores ? ' (out of reach here at that cost per delivery)' : ''}${b1IsFloor ? '; B1 met the bound at its highest rate, so its capacity and this need are higher' : ''}`,
    );
  }
  const r = s.distributedRoom;
  if (r) {
    const adds = r.productAddsUsPerDelivery;
    L.push(
      `  what B1 behind the same ingress leaves for the product at ${r.rate} sends/s (${k(r.deliveriesPerS)} deliveries/s, at least 0.4x B1): it used ${f(r.floorCores, 2)} cores (p99 ${f(r.p99Ms, 1)} ms) and the generator ${f(r.genCores, 2)}, of ${r.cores}: ${f(r.leftCores, 2)} cores left, ${f(r.leftUsPerDelivery, 2)} µs per delivery for everything the product adds` +
        (adds === null
          ? ''
          : `; the distributed stack added ${f(adds, 2)} µs per delivery at that rate${adds > r.leftUsPerDelivery ? ' (more than is left: out of reach here)' : ''}`) +
        (b1IsFloor ? '; B1 met the bound at its highest rate: at its real capacity less is left' : ''),
    );
  }
  L.push('  targets (docs/product/performance.md):');
  for (const c of s.checks)
    L.push(
      `    ${c.figure.padEnd(52)} ${c.value === null ? '-' : c.value.toFixed(2)} (target ${c.target}) ${c.pass === null ? 'n/a' : c.pass ? 'PASS' : 'FAIL'}`,
    );
  return L.join('\n');
}
