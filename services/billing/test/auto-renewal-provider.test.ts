/**
 * Auto-renewal at the provider (docs/product/payments.md PAY11), seen on the wire: billing's Stripe adapter (the
 * official SDK) talks to stripe-mock through a recording relay, so the test reads the request the provider got. The
 * switch sends the subscription's update before anything is recorded; when the provider fails, the caller gets
 * AUTO_RENEWAL_FAILED and the account, its events and its subscription's flag are as they were. A replay rebuilds
 * the flag from the log.
 */
import { describe, it, expect, afterAll } from 'vitest';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { DomainError, TOPICS } from '@ephemera/proto';
import { startStripeMock, STRIPE_MOCK_KEY } from '../../../test/helpers/stripe-mock.ts';
import { createTestDatabase, databaseWithLogOf } from '../../../test/helpers/db.ts';
import { ProviderState } from '../../../test/payments/provider-state.ts';
import { billingHarness } from './billing-harness.ts';

const rid = (prefix: string) => `${prefix}_test_${randomBytes(8).toString('hex')}`;

/** Forwards every request to stripe-mock and records it; `failing` answers Stripe's api_error instead. */
async function recordingRelay(target: string) {
  const seen: Array<{ method: string; path: string; body: string }> = [];
  const relay = { seen, failing: false, url: '', close: () => new Promise<void>((r) => server.close(() => r())) };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method!, path: req.url!, body });
      if (relay.failing) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { type: 'api_error', message: 'down' } }));
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
      ) as Record<string, string>;
      const upstream = await fetch(target + req.url, {
        method: req.method,
        headers,
        body: req.method === 'GET' ? undefined : body,
      });
      res
        .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
        .end(await upstream.text());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  relay.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return relay;
}

const { boot } = billingHarness('auto-renewal');

describe('auto-renewal at the provider (billing, docs/product/payments.md PAY11)', async () => {
  const stripeMock = await startStripeMock();
  const relay = await recordingRelay(stripeMock.url);
  const state = new ProviderState();
  const live = await boot(await createTestDatabase(), {
    adminTrialSweepMs: 0,
    payments: {
      stripe: { secretKey: STRIPE_MOCK_KEY, webhookSecret: null, apiBase: relay.url },
      stateReader: (p) => state.reader(p),
      expirySweepMs: 0,
      reminderSweepMs: 0,
    },
  });
  afterAll(async () => {
    await live.stop();
    await relay.close();
    await stripeMock.stop();
  });
  const svc = live.billing.service;
  const payments = live.billing.payments;

  /** a pro subscriber (the provider's subscription read back and applied, as the webhook does) */
  const subscriber = async () => {
    const email = `renew-${randomBytes(4).toString('hex')}@example.test`;
    const { user } = await svc.register({ email, username: 'renewer', code: await svc.codes.issue(email) }, null);
    const sub = rid('sub');
    state.setSubscription({
      id: sub,
      status: 'active',
      customerId: rid('cus'),
      accountId: user.id,
      plan: 'pro',
      currentPeriodEnd: new Date(Date.now() + 20 * 86_400_000),
      cancelAtPeriodEnd: false,
    });
    expect(await payments.outcomes!.syncSubscription(sub, { accountId: user.id, providerEventId: null })).toBe(
      'account.subscription-activated',
    );
    return { accountId: user.id, sub };
  };
  const row = async (id: string) => (await svc.accounts.byId(id))!;

  it("off sends cancel_at_period_end=true for the account's subscription, on sends false; each is recorded after the provider's answer", async () => {
    const { accountId, sub } = await subscriber();
    relay.seen.length = 0;
    expect(await payments.service.setAutoRenewal(await row(accountId), { autoRenewal: false })).toEqual({
      success: true,
      autoRenewal: false,
    });
    expect(relay.seen).toEqual([
      { method: 'POST', path: `/v1/subscriptions/${sub}`, body: 'cancel_at_period_end=true' },
    ]);
    expect(await row(accountId)).toMatchObject({
      autoRenewal: false,
      cancelAtPeriodEnd: true,
      tier: 'pro',
      paymentStatus: 'active',
    });
    await payments.service.setAutoRenewal(await row(accountId), { autoRenewal: true });
    expect(relay.seen[1]).toEqual({
      method: 'POST',
      path: `/v1/subscriptions/${sub}`,
      body: 'cancel_at_period_end=false',
    });
    expect(await row(accountId)).toMatchObject({ autoRenewal: true, cancelAtPeriodEnd: false });
  });

  it('a provider failure answers "Failed to update auto-renewal settings" and changes nothing', async () => {
    const { accountId } = await subscriber();
    const before = await row(accountId);
    relay.failing = true;
    try {
      const refused = await payments.service
        .setAutoRenewal(before, { autoRenewal: false })
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ code: 'AUTO_RENEWAL_FAILED', message: 'Failed to update auto-renewal settings' });
    } finally {
      relay.failing = false;
    }
    // the same row (its sequence aside: the subscription's receipt may be mailed meanwhile), and no event of the switch
    const { lastSeq: _before, ...was } = before;
    const { lastSeq: _after, ...now } = await row(accountId);
    expect(now).toEqual(was);
    const switched = await live.pool.query(
      `SELECT 1 FROM event_log WHERE topic = $1 AND key = $2 AND event->>'type' = 'account.auto-renewal-changed'`,
      [TOPICS.billing, accountId],
    );
    expect(switched.rowCount).toBe(0);
  });

  it("a replay of the log rebuilds the flag and the subscription's cancel-at-period-end", async () => {
    const { accountId } = await subscriber();
    await payments.service.setAutoRenewal(await row(accountId), { autoRenewal: false });
    const replayed = await boot(await databaseWithLogOf(live.pool), { adminTrialSweepMs: 0 });
    try {
      expect(await replayed.billing.service.accounts.byId(accountId)).toMatchObject({
        autoRenewal: false,
        cancelAtPeriodEnd: true,
        tier: 'pro',
      });
    } finally {
      await replayed.stop();
    }
  });
});
