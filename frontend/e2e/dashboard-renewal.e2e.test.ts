/**
 * The dashboard shows the subscription as the server holds it (docs/product/payments.md PAY6, PAY11, PAY12), in a real
 * browser against embedded mode, a real Mailpit (sign-in codes) and a real stripe-mock (the Stripe SDK's update of the
 * subscription goes there). What "Stripe" says about a subscription is recorded in ProviderState (stripe-mock is
 * stateless) and reaches billing through signed webhooks, as in test/payments/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import Stripe from 'stripe';
import type { Browser } from 'playwright-core';
import { createLogger } from '@ephemera/platform';
import { AUTH_API, PAYMENTS_API, type SessionAnswer } from '@ephemera/proto';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { startMailpit, type Mailpit } from '../../test/helpers/mailpit.ts';
import { startStripeMock, STRIPE_MOCK_KEY, type StripeMock } from '../../test/helpers/stripe-mock.ts';
import { ProviderState } from '../../test/payments/provider-state.ts';
import { assertFrontendBuilt, expectText, launchBrowser, User, WAIT_MS } from './browser.ts';
import { mailedCode } from './sign-in.ts';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const DAY = 86_400_000;
const signer = new Stripe('sk_test_signer');
const rid = (prefix: string) => `${prefix}_test_${randomBytes(8).toString('hex')}`;
let n = 0;

describe('dashboard: auto-renewal and an expired subscription (embedded, Mailpit, stripe-mock)', () => {
  let browser: Browser;
  let app: EmbeddedApp;
  let mail: Mailpit;
  let stripeMock: StripeMock;
  let dataDir: string;
  const state = new ProviderState();
  const users: User[] = [];

  beforeAll(async () => {
    assertFrontendBuilt();
    [mail, stripeMock] = await Promise.all([startMailpit(), startStripeMock()]);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-renewal-'));
    app = await startEmbedded({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logger: createLogger('e2e-renewal', 'silent'),
      smtpUrl: mail.smtpUrl,
      frontendDist: process.env.E2E_FRONTEND_DIST,
      google: null,
      payments: {
        stripe: { secretKey: STRIPE_MOCK_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: stripeMock.url },
        expirySweepMs: 0,
        reminderSweepMs: 0,
        stateReader: (provider) => state.reader(provider),
      },
    });
    browser = await launchBrowser();
  }, 120_000);
  afterEach(async () => {
    for (const u of users.splice(0)) await u.close();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([mail?.stop(), stripeMock?.stop()]);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(app.url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** an account made over HTTP (the code read from Mailpit) */
  const signUp = async (prefix: string) => {
    const email = `${prefix}-${process.pid}-${Date.now().toString(36)}-${n++}@example.test`;
    const since = Date.now();
    expect((await post(AUTH_API.requestCode, { email })).status).toBe(200);
    const res = await post(AUTH_API.register, { email, username: prefix, code: await mailedCode(mail, email, since) });
    expect(res.status).toBe(200);
    return (await res.json()) as SessionAnswer;
  };
  const deliver = async (type: string, object: Record<string, unknown>) => {
    const body = JSON.stringify({
      id: rid('evt'),
      object: 'event',
      api_version: '2025-10-29',
      type,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    });
    const res = await post(PAYMENTS_API.webhook, body, {
      'stripe-signature': signer.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }),
    });
    expect(res.status).toBe(200);
  };
  /** a pro subscriber: "Stripe" says its checkout was paid and its subscription renews; the webhook applied it */
  const subscriber = async (prefix: string) => {
    const s = await signUp(prefix);
    const ids = { session: rid('cs'), sub: rid('sub'), customer: rid('cus') };
    state.setSession({
      id: ids.session,
      mode: 'subscription',
      complete: true,
      paid: true,
      accountId: s.user.id,
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
      accountId: s.user.id,
      plan: 'pro',
      currentPeriodEnd: new Date(Date.now() + 20 * DAY),
      cancelAtPeriodEnd: false,
    });
    await deliver('checkout.session.completed', { id: ids.session, object: 'checkout.session' });
    return { s, ids };
  };
  /** a browser signed in as the account, on the dashboard */
  const dashboard = async (label: string, s: SessionAnswer) => {
    const u = await User.open(browser, label, app.url);
    users.push(u);
    await u.context.addInitScript(
      (r) => {
        if (!localStorage.getItem('ephemera.account')) localStorage.setItem('ephemera.account', r);
      },
      JSON.stringify({ token: s.token, user: s.user }),
    );
    await u.goto('/dashboard');
    await u.page.getByTestId('dashboard-page').waitFor({ timeout: WAIT_MS });
    return u;
  };
  const renewalFact = (u: User) =>
    u.page.locator('dt', { hasText: 'Auto-renewal' }).locator('xpath=following-sibling::dd[1]');

  it("a subscriber sees auto-renewal On; Turn off ends it at the period's end, shown on the subscription page and after a reload (PAY11)", async () => {
    const { s } = await subscriber('renews');
    const u = await dashboard('renews', s);
    await expectText(renewalFact(u), /^On\b/, 'auto-renewal of a new subscription');
    await u.page.getByRole('button', { name: 'Turn off' }).click();
    await expectText(renewalFact(u), /^Off\b/, 'auto-renewal after Turn off');
    await u.page.reload();
    await expectText(renewalFact(u), /^Off\b/, "auto-renewal after a reload: the server's");
    await u.goto('/subscription');
    await expectText(
      u.page.getByTestId('cancel-notice'),
      'Your subscription will be cancelled at the end of the current billing period.',
      'the cancel notice',
    );
  });

  /** a subscriber of `plan` whose paid period ends in `days` (rounded up, as PAY5 counts) */
  const endingIn = async (prefix: string, plan: 'pro' | 'business', days: number) => {
    const s = await signUp(prefix);
    const ids = { session: rid('cs'), sub: rid('sub'), customer: rid('cus') };
    state.setSession({
      id: ids.session,
      mode: 'subscription',
      complete: true,
      paid: true,
      accountId: s.user.id,
      kind: 'subscription',
      plan,
      roomId: null,
      extensionDays: null,
      subscriptionId: ids.sub,
      customerId: ids.customer,
      amountTotalCents: plan === 'pro' ? 900 : 1900,
    });
    state.setSubscription({
      id: ids.sub,
      status: 'active',
      customerId: ids.customer,
      accountId: s.user.id,
      plan,
      currentPeriodEnd: new Date(Date.now() + days * DAY - 60_000),
      cancelAtPeriodEnd: false,
    });
    await deliver('checkout.session.completed', { id: ids.session, object: 'checkout.session' });
    return s;
  };

  it('the renewal banner by urgency (PAY6): a reminder 5 days out (business) can be minimized and dismissed; 3 days warns, 1 day is urgent', async () => {
    const u = await dashboard('reminded', await endingIn('reminded', 'business', 5));
    const banner = u.page.getByTestId('renewal-banner');
    await expectText(
      banner.locator('span').first(),
      'Expires in 5 days. Consider renewing to avoid any interruption.',
      'the reminder',
    );
    expect(await banner.getAttribute('data-urgency')).toBe('reminder');
    expect(await banner.getAttribute('class')).toContain('notice-info');
    await expectText(u.page.getByTestId('renew-button'), 'Renew Subscription', 'the button');
    await banner.getByRole('button', { name: 'Minimize' }).click();
    await u.page.getByTestId('renewal-expand').click();
    await expectText(
      banner.locator('span').first(),
      'Expires in 5 days. Consider renewing to avoid any interruption.',
      'expanded again',
    );
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });

    const warned = await dashboard('warned', await endingIn('warned', 'pro', 3));
    const warning = warned.page.getByTestId('renewal-banner');
    await expectText(
      warning.locator('span').first(),
      'Expires in 3 day(s). Renew soon to maintain access.',
      'the warning',
    );
    expect(await warning.getAttribute('class')).toContain('notice-warning');
    expect(await warning.getByRole('button', { name: 'Dismiss' }).count(), 'only a reminder can be dismissed').toBe(0);

    const urged = await dashboard('urged', await endingIn('urged', 'pro', 1));
    const urgent = urged.page.getByTestId('renewal-banner');
    await expectText(
      urgent.locator('span').first(),
      'Expires in 1 day(s). Renew now to avoid interruption.',
      'the urgent banner',
    );
    expect(await urgent.getAttribute('class')).toContain('notice-danger');
  });

  it('after the grace the dashboard says the subscription expired, and Reactivate Subscription leads to the plans (PAY12)', async () => {
    const { s, ids } = await subscriber('lapsed');
    state.setSubscription({
      id: ids.sub,
      status: 'canceled',
      customerId: ids.customer,
      accountId: s.user.id,
      plan: 'pro',
      currentPeriodEnd: new Date(Date.now() - 10 * DAY),
      cancelAtPeriodEnd: false,
    });
    await deliver('customer.subscription.deleted', {
      id: ids.sub,
      object: 'subscription',
      customer: ids.customer,
      status: 'canceled',
    });
    const u = await dashboard('lapsed', s);
    const banner = u.page.getByTestId('renewal-banner');
    await expectText(
      banner.locator('span').first(),
      'Your subscription has expired. Renew now to regain full access.',
      'the expired banner',
    );
    const button = u.page.getByTestId('renew-button');
    await expectText(button, 'Reactivate Subscription', "the banner's button");
    await button.click();
    await u.page.waitForURL((url) => url.pathname === '/upgrade', { timeout: WAIT_MS });
  });
});
