/**
 * HTTP for payments (the ingress sends /api/payments/ to billing), and the spec's account calls that need payments
 * (upgrade-rooms, renew-subscription, create-paid-account, auto-renewal, under /api/auth/). The webhook reads its body raw (express.raw,
 * mounted before any JSON parser): the signature is over the exact bytes Stripe sent. Every other route is a
 * signed-in account's (Authorization: Bearer {session}); the session is checked before anything else, so an
 * anonymous caller learns nothing, not even whether payments are configured.
 */
import express, { type Request } from 'express';
import { DomainError, HTTP_ROUTES, type HttpRouteId } from '@ephemera/proto';
import { accountOf, noStore, publicRoute, publicRouteAt } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import { billingAccountCaller } from '../http.ts';
import type { AccountRow } from '../accounts-repository.ts';
import type { PaymentsService } from './service.ts';
import type { PaymentOutcomes } from './webhooks.ts';
import type { PaymentProvider } from './provider.ts';

/** POST /api/payments/webhook: mount before express.json(). */
export function paymentWebhookRouter(
  provider: PaymentProvider | null,
  outcomes: PaymentOutcomes | null,
): express.Router {
  const r = express.Router();
  publicRoute(
    r,
    'paymentWebhook',
    {},
    async (req, res) => {
      if (!provider || !outcomes) throw new DomainError('PAYMENTS_NOT_CONFIGURED');
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      res.json(await outcomes.receive(provider, raw, req.get('stripe-signature') ?? null));
    },
    express.raw({ type: () => true, limit: '512kb' }),
  );
  return r;
}

export function paymentsRouter(billing: BillingService, payments: PaymentsService): express.Router {
  const r = express.Router();
  r.use('/api/payments', noStore());
  const callers = { account: billingAccountCaller(billing) };
  /** an account route (its row) answering what fn gives for the session's account */
  const signedIn = (
    id: HttpRouteId,
    fn: (account: AccountRow, req: Request) => Promise<unknown> | unknown,
    path: string = HTTP_ROUTES[id].path,
  ) =>
    publicRouteAt(
      r,
      id,
      path,
      callers,
      async (req, res, caller) => {
        res.json(await fn(accountOf(caller).account, req));
      },
      noStore(),
    );

  signedIn('createCheckoutSession', (a, req) => payments.createCheckout(a, req.body));
  signedIn('createRoomExtensionPayment', (a, req) => payments.createExtensionPayment(a, req.body));
  signedIn('completeRoomExtension', (a, req) => payments.completeExtension(a, String(req.params.orderId)));
  // The path's e-mail (the spec's form) is ignored: the status is always the session's own account's.
  signedIn('subscriptionStatus', (a) => payments.subscriptionStatus(a), '/api/payments/subscription-status');
  signedIn('subscriptionStatus', (a) => payments.subscriptionStatus(a));
  signedIn('createPortalSession', (a, req) => payments.portal(a, req.body));
  signedIn('verifyPayment', (a, req) => payments.verify(a, String(req.params.sessionId)));
  // The spec's account calls that need payments (mounted before the account router, whose /api/auth/ 404 follows).
  // Bodies never name the account nor set its tier (proto/src/http-authz.ts).
  signedIn('upgradeRooms', (a) => payments.upgradeRooms(a));
  signedIn('autoRenewal', (a, req) => payments.setAutoRenewal(a, req.body));
  signedIn('renewSubscription', (a, req) => payments.renew(a, req.body));
  signedIn('createPaidAccount', async (a, req) => {
    const payment = await payments.verifyPaymentId(a, req.body);
    const profile = await billing.profile((await billing.accounts.byId(a.id)) ?? a);
    return { ...profile, payment };
  });
  r.all(/^\/api\/payments\//, (_req, res) => {
    res.status(404).json({ success: false, code: 'VALIDATION', message: 'Unknown API route' });
  });
  return r;
}
