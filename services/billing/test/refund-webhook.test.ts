/**
 * Refunds (Stripe's charge.refunded) in billing: signed webhook bodies go through the real PaymentOutcomes, the Stripe
 * adapter on the official SDK against stripe-mock, the real room module and PostgreSQL, and a sealed embedded log.
 * stripe-mock is stateless, so the charges' current state is recorded in ProviderState (test/payments); a charge
 * not recorded there is read from stripe-mock itself. Checked: one account.payment-refunded per increase of the
 * charge's refunded total as the provider records it (never the body's figures), sealed under the account's key;
 * a duplicate delivery, another event about the same refund, or concurrent events about one charge record nothing
 * more; a later partial refund records its own amount; billing.charge_refunds is rebuilt by a replay.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { TOPICS, type EventEnvelope } from '@ephemera/proto';
import { EmbeddedEventLog, createLogger, createPool, sealedEventLog } from '@ephemera/platform';
import { databaseWithLogOf } from '../../../test/helpers/db.ts';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { startStripeMock, STRIPE_MOCK_KEY } from '../../../test/helpers/stripe-mock.ts';
import { ProviderState } from '../../../test/payments/provider-state.ts';
import { startBillingModule } from '../src/index.ts';

const logger = createLogger('test', 'silent');
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const signer = new Stripe('sk_test_signer');
const rid = (prefix: string) => `${prefix}_test_${randomBytes(8).toString('hex')}`;
const REFUNDED_AT = new Date('2026-01-02T03:04:05Z');

/** a Stripe event around `object`, as Stripe posts it */
function eventBody(type: string, object: Record<string, unknown>, id = rid('evt')): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2025-10-29',
    type,
    livemode: false,
    created: Math.floor(Date.now() / 1000),
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
}
/** charge.refunded whose body claims more than the provider's record says (the server must not believe it) */
const chargeRefunded = (chargeId: string, id?: string) =>
  eventBody(
    'charge.refunded',
    { id: chargeId, object: 'charge', amount: 900, amount_refunded: 99_999, customer: 'cus_forged', refunded: true },
    id,
  );

describe('charge.refunded (billing)', async () => {
  const stripeMock = await startStripeMock();
  const world = await startRoomWorld({ sealed: true });
  const { databaseUrl, pool, log, keys, room } = world;
  const state = new ProviderState();
  const billing = await startBillingModule({
    databaseUrl,
    pool,
    log,
    logger,
    accountKeys: keys.store,
    rooms: room.service.ownership,
    adminTrialSweepMs: 0,
    payments: {
      stripe: { secretKey: STRIPE_MOCK_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: stripeMock.url },
      stateReader: (provider) => state.reader(provider),
      expirySweepMs: 0,
      reminderSweepMs: 0,
    },
  });
  // What the log holds, opened by the sealing decorator as every consumer sees it.
  const refunds: EventEnvelope<'account.payment-refunded'>[] = [];
  const seen = await log.subscribe({
    groupId: 'refund-test',
    topics: [TOPICS.billing],
    fromBeginning: true,
    handler: async ({ event }) => {
      if (event.type === 'account.payment-refunded') refunds.push(event);
    },
  });
  afterAll(async () => {
    await seen.stop();
    await billing.stop();
    await world.stop();
    await stripeMock.stop();
  });
  const provider = billing.payments.provider!;
  const outcomes = billing.payments.outcomes!;
  const deliver = (body: string) =>
    outcomes.receive(
      provider,
      Buffer.from(body),
      signer.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }),
    );
  const idOf = (body: string) => (JSON.parse(body) as { id: string }).id;
  /** the refunds recorded for the account, once the subscription has handled everything the log holds */
  const refundsOf = async (accountId: string) => {
    await seen.caughtUp();
    return refunds.filter((e) => e.payload.accountId === accountId).map((e) => e.payload);
  };
  const charge = (id: string, customerId: string | null, refundedCents: number, accountId: string | null = null) =>
    state.setCharge({
      id,
      customerId,
      accountId,
      amountCents: 900,
      amountRefundedCents: refundedCents,
      currency: 'usd',
      lastRefundAt: refundedCents ? REFUNDED_AT : null,
    });

  let n = 0;
  const signUp = async () => {
    const email = `refund-${Date.now().toString(36)}-${n++}@example.test`;
    return (
      await billing.service.register({ email, username: 'payer', code: await billing.service.codes.issue(email) }, null)
    ).user.id;
  };
  /** an account that paid for pro through checkout: the provider's customer is now on its row */
  const subscriber = async () => {
    const accountId = await signUp();
    const ids = { session: rid('cs'), sub: rid('sub'), customer: rid('cus') };
    state.setSession({
      id: ids.session,
      mode: 'subscription',
      complete: true,
      paid: true,
      accountId,
      kind: 'subscription',
      plan: 'pro',
      roomId: null,
      extensionDays: null,
      subscriptionId: ids.sub,
      customerId: ids.customer,
      amountTotalCents: 900,
    });
    state.setSubscription({
      id: ids.sub,
      status: 'active',
      customerId: ids.customer,
      accountId,
      plan: 'pro',
      currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
      cancelAtPeriodEnd: false,
    });
    const paid = await deliver(
      eventBody('checkout.session.completed', { id: ids.session, object: 'checkout.session' }),
    );
    expect(paid.outcome).toBe('account.subscription-activated');
    return { accountId, customer: ids.customer };
  };

  let payer: { accountId: string; customer: string };
  beforeAll(async () => {
    payer = await subscriber();
  });
  const chargeId = rid('ch');

  it('a partial refund, read back from the provider, is one event of its amount, sealed under the account key; a duplicate delivery records nothing', async () => {
    charge(chargeId, payer.customer, 300);
    const body = chargeRefunded(chargeId);
    expect(await deliver(body)).toEqual({ received: true, duplicate: false, outcome: 'account.payment-refunded' });
    expect(await deliver(body)).toEqual({ received: true, duplicate: true, outcome: 'duplicate' });
    expect(await refundsOf(payer.accountId)).toEqual([
      {
        accountId: payer.accountId,
        chargeId,
        amountCents: 300,
        totalRefundedCents: 300,
        chargeAmountCents: 900,
        currency: 'usd',
        refundedAt: REFUNDED_AT.toISOString(),
        provider: 'stripe',
        providerEventId: idOf(body),
      },
    ]);
    expect(state.reads.get(chargeId)).toBe(1); // read once: the duplicate was refused before anything was read
    const stored = await pool.query(
      `SELECT key, event::text AS raw FROM event_log WHERE topic = $1 AND event->>'type' = 'account.payment-refunded'`,
      [TOPICS.billing],
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].key).toBe(payer.accountId); // the account's partition and key
    expect(stored.rows[0].raw).not.toContain(chargeId); // sealed
    expect(
      (
        await pool.query(
          'SELECT account_id, refunded_cents::int AS cents FROM billing.charge_refunds WHERE charge_id = $1',
          [chargeId],
        )
      ).rows,
    ).toEqual([{ account_id: payer.accountId, cents: 300 }]);
  });

  it('another event about a refund already recorded records nothing; a later partial refund records only its own amount, once under concurrency', async () => {
    expect((await deliver(chargeRefunded(chargeId))).outcome).toMatch(/^unchanged/);
    charge(chargeId, payer.customer, 900); // the rest of the charge refunded too
    const bodies = Array.from({ length: 5 }, () => chargeRefunded(chargeId)); // five distinct events about it, at once
    const answers = await Promise.all(bodies.map(deliver));
    expect(answers.map((a) => a.outcome).filter((o) => o === 'account.payment-refunded')).toHaveLength(1);
    expect(answers.filter((a) => a.outcome.startsWith('unchanged'))).toHaveLength(4);
    const recorded = await refundsOf(payer.accountId);
    expect(recorded.map((p) => [p.amountCents, p.totalRefundedCents])).toEqual([
      [300, 300],
      [600, 900],
    ]);
    expect((await deliver(chargeRefunded(chargeId))).outcome).toMatch(/^unchanged/);
    expect(await refundsOf(payer.accountId)).toHaveLength(2);
  });

  it("the account by our id in the charge's record when it has no customer; unknown accounts, unrefunded charges and bad signatures record nothing", async () => {
    const extensionPayer = await signUp();
    const oneTime = rid('ch');
    charge(oneTime, null, 199, extensionPayer); // a one-time checkout's charge: no customer, our accountId in its metadata
    expect((await deliver(chargeRefunded(oneTime))).outcome).toBe('account.payment-refunded');
    expect(await refundsOf(extensionPayer)).toEqual([
      expect.objectContaining({ chargeId: oneTime, amountCents: 199, totalRefundedCents: 199 }),
    ]);

    const strangers = rid('ch');
    charge(strangers, rid('cus'), 500);
    expect((await deliver(chargeRefunded(strangers))).outcome).toBe('ignored: no account for the charge');
    // Not recorded in ProviderState: the real adapter reads stripe-mock's charge (nothing refunded, no customer).
    const fromMock = rid('ch');
    expect(await provider.charge(fromMock)).toMatchObject({
      amountRefundedCents: 0,
      currency: 'usd',
      customerId: null,
    });
    expect((await deliver(chargeRefunded(fromMock))).outcome).toBe('ignored: nothing refunded');
    const forged = chargeRefunded(strangers);
    await expect(
      outcomes.receive(
        provider,
        Buffer.from(forged),
        signer.webhooks.generateTestHeaderString({ payload: forged, secret: 'whsec_not_ours' }),
      ),
    ).rejects.toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
    await seen.caughtUp();
    expect(refunds.map((e) => e.payload.chargeId).sort()).toEqual([chargeId, chargeId, oneTime].sort());
  });

  it('billing.charge_refunds is a projection: a replay of the log rebuilds it', async () => {
    const rows = (p: typeof pool) =>
      p.query(
        'SELECT charge_id, account_id, refunded_cents::int AS cents FROM billing.charge_refunds ORDER BY charge_id',
      );
    const live = (await rows(pool)).rows;
    expect(live).toHaveLength(2);
    const copyUrl = await databaseWithLogOf(pool);
    const copyPool = createPool(copyUrl);
    const copyLog = sealedEventLog(new EmbeddedEventLog(copyPool), keys.keyring);
    await copyLog.init(Object.values(TOPICS));
    // starting replays the billing topic into the copy's empty read model before it answers
    const replayed = await startBillingModule({
      databaseUrl: copyUrl,
      pool: copyPool,
      log: copyLog,
      logger,
      accountKeys: keys.store,
      rooms: room.service.ownership,
      adminTrialSweepMs: 0,
    });
    try {
      expect((await rows(copyPool)).rows).toEqual(live);
    } finally {
      await replayed.stop();
      await copyLog.close();
      await copyPool.end();
    }
  });
});
