/**
 * HTTP for payments (the ingress sends /api/payments/ to billing), and the spec's account calls that need payments
 * (upgrade-rooms, renew-subscription, create-paid-account, under /api/auth/). The webhook reads its body raw (express.raw,
 * mounted before any JSON parser): the signature is over the exact bytes Stripe sent. Every other route is a
 * signed-in account's (Authorization: Bearer {session}); the session is checked before anything else, so an
 * anonymous caller learns nothing, not even whether payments are configured.
 */
import express, { type Request } from 'express';
import { DomainError, HTTP_ROUTES } from '@ephemera/proto';
import { noStore, route } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import { bearerOf } from '../http.ts';
import type { PaymentsService } from './service.ts';
import type { PaymentOutcomes } from './webhooks.ts';
import type { PaymentProvider } from './provider.ts';

/** POST /api/payments/webhook: mount before express.json(). */
export function paymentWebhookRouter(provider: PaymentProvider | null, outcomes: PaymentOutcomes | null): express.Router {
  const r = express.Router();
  r.post(HTTP_ROUTES.paymentWebhook.path, express.raw({ type: () => true, limit: '512kb' }), route(async (req, res) => {
    if (!provider || !outcomes) throw new DomainError('PAYMENTS_NOT_CONFIGURED');
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    res.json(await outcomes.receive(provider, raw, req.get('stripe-signature') ?? null));
  }));
  return r;
}

export function paymentsRouter(billing: BillingService, payments: PaymentsService): express.Router {
  const r = express.Router();
  r.use('/api/payments', noStore());
  const signedIn = (fn: (account: Awaited<ReturnType<BillingService['accountOfToken']>>, req: Request) => Promise<unknown> | unknown) =>
    route(async (req, res) => { res.json(await fn(await billing.accountOfToken(bearerOf(req)), req)); });

  r.post(HTTP_ROUTES.createCheckoutSession.path, signedIn((a, req) => payments.createCheckout(a, req.body)));
  r.post(HTTP_ROUTES.createRoomExtensionPayment.path, signedIn((a, req) => payments.createExtensionPayment(a, req.body)));
  r.post(HTTP_ROUTES.completeRoomExtension.path, signedIn((a, req) => payments.completeExtension(a, String(req.params.orderId))));
  // The path's e-mail (the spec's form) is ignored: the status is always the session's own account's.
  r.get('/api/payments/subscription-status', signedIn((a) => payments.subscriptionStatus(a)));
  r.get(HTTP_ROUTES.subscriptionStatus.path, signedIn((a) => payments.subscriptionStatus(a)));
  r.post(HTTP_ROUTES.createPortalSession.path, signedIn((a, req) => payments.portal(a, req.body)));
  r.get(HTTP_ROUTES.verifyPayment.path, signedIn((a, req) => payments.verify(a, String(req.params.sessionId))));
  // The spec's account calls that need payments (mounted before the account router, whose /api/auth/ 404 follows).
  // Bodies never name the account nor set its tier (proto/src/authz.ts).
  r.post(HTTP_ROUTES.upgradeRooms.path, noStore(), signedIn((a) => payments.upgradeRooms(a)));
  r.post(HTTP_ROUTES.renewSubscription.path, noStore(), signedIn((a, req) => payments.renew(a, req.body)));
  r.post(HTTP_ROUTES.createPaidAccount.path, noStore(), signedIn(async (a, req) => {
    const payment = await payments.verifyPaymentId(a, req.body);
    const profile = await billing.profile((await billing.accounts.byId(a.id)) ?? a);
    return { ...profile, payment };
  }));
  r.all(/^\/api\/payments\//, (_req, res) => { res.status(404).json({ success: false, code: 'VALIDATION', message: 'Unknown API route' }); });
  return r;
}
