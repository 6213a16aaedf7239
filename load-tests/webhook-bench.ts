/**
 * Payment webhook benchmark (docs/product/performance.md PF24). Starts Mailpit, stripe-mock and the embedded app as a
 * child process
 * (webhook-bench-server.ts: STRIPE_* pointed at stripe-mock, receipts mailed to Mailpit), signs up one account per
 * distinct event, then POSTs WEBHOOK_BENCH_EVENTS signed deliveries to /api/payments/webhook, WEBHOOK_BENCH_CONCURRENCY
 * at a time: checkout.session.completed and invoice.paid in equal parts, each a paid subscription of its own account,
 * plus a share of duplicates (WEBHOOK_BENCH_DUPLICATES, the same event and id delivered again, shuffled in, so some
 * arrive while the first delivery is still being handled, as Stripe's retries can). Bodies are signed the way
 * test/payments signs them (the SDK's generateTestHeaderString with the endpoint's secret), before the clock starts.
 * Prints events/s, p50/p95/p99 latency, the duplicates and that every event granted once (one non-duplicate answer
 * per event id; per account: the plan's tier, exactly one activation and one receipt recorded, one receipt in
 * Mailpit), and the server's CPU per delivery (see the printed note for what it counts).
 * Usage: npm run bench:webhooks   (WEBHOOK_BENCH_EVENTS=400, WEBHOOK_BENCH_CONCURRENCY=16, WEBHOOK_BENCH_DUPLICATES=0.2;
 * WEBHOOK_BENCH_CPU_PROF=<dir>: the server child runs with --cpu-prof into that directory)
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { PAYMENTS_API } from '@ephemera/proto';
import { startMailpit } from '../test/helpers/mailpit.ts';
import { startStripeMock, STRIPE_MOCK_KEY } from '../test/helpers/stripe-mock.ts';
import { percentileSorted as percentile, sampleCpu, cpuDeltaUs } from './lib/stats.ts';

const EVENTS = Number(process.env.WEBHOOK_BENCH_EVENTS ?? 400);
const CONCURRENCY = Number(process.env.WEBHOOK_BENCH_CONCURRENCY ?? 16);
const DUP_SHARE = Number(process.env.WEBHOOK_BENCH_DUPLICATES ?? 0.2);
const DUPLICATES = Math.round(EVENTS * DUP_SHARE);
const DISTINCT = EVENTS - DUPLICATES;
if (!(DISTINCT > 0 && CONCURRENCY > 0 && DUP_SHARE >= 0 && DUP_SHARE < 1))
  throw new Error('WEBHOOK_BENCH_EVENTS, _CONCURRENCY > 0 and 0 <= _DUPLICATES < 1');
const SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const DAY = 86_400_000;

const mail = await startMailpit();
const stripeMock = await startStripeMock();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-webhook-bench-'));
const child = fork(path.join(import.meta.dirname, 'webhook-bench-server.ts'), [], {
  execArgv: [
    '--import',
    'tsx',
    ...(process.env.WEBHOOK_BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.WEBHOOK_BENCH_CPU_PROF}`]
      : []),
  ],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    SMTP_URL: mail.smtpUrl,
    STRIPE_SECRET_KEY: STRIPE_MOCK_KEY,
    STRIPE_API_BASE: stripeMock.url,
    STRIPE_WEBHOOK_SECRET: SECRET,
  },
});
const replies = new Map<number, (m: any) => void>();
child.on('message', (m: any) => {
  replies.get(m.id)?.(m);
  replies.delete(m.id);
});
let nextId = 1;
const ask = (type: string, body: Record<string, unknown> = {}) =>
  new Promise<any>((resolve, reject) => {
    const id = nextId++;
    replies.set(id, (m) => (m.ok ? resolve(m) : reject(new Error(`${type}: ${m.error}`))));
    child.send({ id, type, ...body });
  });
const ready = await new Promise<{ url: string }>((resolve, reject) => {
  replies.set(0, resolve);
  child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
});

try {
  // ---- set-up (not timed): accounts, the provider's state, signed bodies
  const { accountIds } = (await ask('accounts', { n: DISTINCT })) as { accountIds: string[] };
  const sessions: unknown[] = [];
  const subscriptions: unknown[] = [];
  const events: { id: string; accountId: string; body: string; plan: 'pro' | 'business' }[] = [];
  const periodEnd = new Date(Date.now() + 30 * DAY).toISOString();
  accountIds.forEach((accountId, i) => {
    const tag = `bench_${i}_${randomBytes(6).toString('hex')}`;
    const [session, sub, customer] = [`cs_${tag}`, `sub_${tag}`, `cus_${tag}`];
    const plan = i % 4 < 2 ? 'pro' : 'business';
    subscriptions.push({
      id: sub,
      status: 'active',
      customerId: customer,
      accountId,
      plan,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: false,
    });
    const checkout = i % 2 === 0;
    if (checkout) {
      sessions.push({
        id: session,
        mode: 'subscription',
        complete: true,
        paid: true,
        accountId,
        kind: 'subscription',
        plan,
        roomId: null,
        extensionDays: null,
        subscriptionId: sub,
        customerId: customer,
        amountTotalCents: plan === 'pro' ? 900 : 1900,
      });
    }
    const object = checkout
      ? { id: session, object: 'checkout.session' }
      : {
          id: `in_${tag}`,
          object: 'invoice',
          customer,
          parent: { type: 'subscription_details', subscription_details: { subscription: sub } },
        };
    const id = `evt_${tag}`;
    events.push({
      id,
      accountId,
      plan,
      body: JSON.stringify({
        id,
        object: 'event',
        api_version: '2025-10-29',
        type: checkout ? 'checkout.session.completed' : 'invoice.paid',
        livemode: false,
        created: Math.floor(Date.now() / 1000),
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object },
      }),
    });
  });
  await ask('state', { sessions, subscriptions });
  const deliveries = [
    ...events,
    ...Array.from({ length: DUPLICATES }, () => events[Math.floor(Math.random() * events.length)]!),
  ];
  for (let i = deliveries.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
  }
  const signer = new Stripe('sk_test_signer');
  const signed = deliveries.map((e) => ({
    e,
    header: signer.webhooks.generateTestHeaderString({ payload: e.body, secret: SECRET }),
  }));

  // ---- the timed run
  const latencies: number[] = [];
  const answers = new Map<string, { duplicate: boolean; outcome: string }[]>();
  let failures = 0;
  let next = 0;
  const cpuBefore = sampleCpu([{ label: 'server', pid: child.pid! }]);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < signed.length) {
        const { e, header } = signed[next++]!;
        const t = performance.now();
        const res = await fetch(ready.url + PAYMENTS_API.webhook, {
          method: 'POST',
          body: e.body,
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
        });
        const json = (await res.json()) as { duplicate: boolean; outcome: string };
        latencies.push(performance.now() - t);
        if (res.status !== 200) {
          if (failures++ === 0) console.error(`first refused delivery: ${res.status} ${JSON.stringify(json)}`);
          continue;
        }
        answers.set(e.id, [...(answers.get(e.id) ?? []), json]);
      }
    }),
  );
  const answeredMs = performance.now() - started;
  const cpuAnswered = sampleCpu([{ label: 'server', pid: child.pid! }]);
  await ask('settle'); // the receipts are mailed after the answer: their cost belongs to the events too
  const settledMs = performance.now() - started;
  const cpuSettled = sampleCpu([{ label: 'server', pid: child.pid! }]);

  // ---- did every event grant exactly once?
  const { accounts } = (await ask('verify', { accountIds })) as {
    accounts: ({ id: string; tier: string; lastSeq: number } | null)[];
  };
  const handledOnce = events.filter(
    (e) =>
      (answers.get(e.id) ?? []).filter((a) => !a.duplicate && a.outcome === 'account.subscription-activated').length ===
      1,
  ).length;
  const duplicateAnswers = [...answers.values()].flat().filter((a) => a.duplicate).length;
  // registered (1), subscription-activated (2), receipt-mailed (3): one activation and one receipt, nothing else
  const grantedOnce = events.filter((e, i) => accounts[i]?.tier === e.plan && accounts[i]?.lastSeq === 3).length;
  // Receipts Mailpit received (this Mailpit is the bench's own: one per account expected)
  const res = await fetch(
    `${mail.apiUrl}/api/v1/search?query=${encodeURIComponent('subject:"Your Ephemera receipt"')}&limit=1`,
  );
  const mailed = ((await res.json()) as { messages_count: number }).messages_count;

  const sorted = [...latencies].sort((a, b) => a - b);
  const answeredCpu = cpuDeltaUs(cpuBefore, cpuAnswered);
  const settledCpu = cpuDeltaUs(cpuBefore, cpuSettled);
  const total = (r: Record<string, number>) => Object.values(r).reduce((x, y) => x + y, 0);
  const split = (r: Record<string, number>, per: number) =>
    Object.entries(r)
      .sort()
      .map(([k, v]) => `${k} ${(v / per).toFixed(0)}`)
      .join(', ');
  const ok = (b: boolean) => (b ? 'OK' : 'FAIL');
  console.log(
    `webhook bench (embedded app in a child process; Stripe SDK against stripe-mock; receipts over SMTP to Mailpit)`,
  );
  console.log(
    `  ${EVENTS} deliveries at concurrency ${CONCURRENCY}: ${DISTINCT} distinct events (${Math.ceil(DISTINCT / 2)} checkout.session.completed, ${Math.floor(DISTINCT / 2)} invoice.paid), ${DUPLICATES} duplicates`,
  );
  console.log(
    `  throughput   ${(EVENTS / (answeredMs / 1000)).toFixed(1)} events/s (deliveries answered / ${(answeredMs / 1000).toFixed(2)} s from the first request to the last answer); ${failures} not 200`,
  );
  console.log(
    `  latency      p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms  p99 ${percentile(sorted, 99).toFixed(1)} ms  max ${sorted.at(-1)!.toFixed(1)} ms (request sent -> answer read)`,
  );
  console.log(
    `  duplicates   ${duplicateAnswers} answered "duplicate" (expected ${DUPLICATES}): ${ok(duplicateAnswers === DUPLICATES)}`,
  );
  console.log(
    `  granted once ${handledOnce}/${DISTINCT} events with exactly one non-duplicate answer; ${grantedOnce}/${DISTINCT} accounts on their plan with exactly one activation and one receipt recorded; ${mailed} receipts in Mailpit (expected ${DISTINCT}): ${ok(handledOnce === DISTINCT && grantedOnce === DISTINCT && mailed === DISTINCT)}`,
  );
  console.log(
    `  server CPU   ${(total(answeredCpu) / EVENTS).toFixed(0)} µs per delivery until the last answer [${split(answeredCpu, EVENTS)}]; ${(total(settledCpu) / EVENTS).toFixed(0)} µs per delivery` +
      ` (${(total(settledCpu) / DISTINCT).toFixed(0)} µs per granted event) once every receipt was mailed (${(settledMs / 1000).toFixed(2)} s) [${split(settledCpu, EVENTS)}]`,
  );
  console.log(
    '  (CPU: utime+stime from /proc of the app process and its descendants, i.e. its embedded PostgreSQL, over the window;' +
      ' not counted: this load generator, stripe-mock, Mailpit. The machine is shared: compare runs side by side.)',
  );
  if (
    failures ||
    handledOnce !== DISTINCT ||
    grantedOnce !== DISTINCT ||
    mailed !== DISTINCT ||
    duplicateAnswers !== DUPLICATES
  )
    process.exitCode = 1;
} finally {
  await ask('stop').catch(() => {});
  await new Promise((r) => {
    if (child.exitCode !== null) r(null);
    else {
      child.once('exit', r);
      setTimeout(() => {
        child.kill('SIGKILL');
        r(null);
      }, 15_000);
    }
  });
  await stripeMock.stop();
  await mail.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
