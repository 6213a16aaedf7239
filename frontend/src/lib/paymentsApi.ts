/** The payment routes' calls (split from payments.ts; docs/protocol.md "Payments (billing)"), bearer token each. */
import { AUTH_API, PAYMENTS_API, type PaidPlan } from '@ephemera/proto/client';
import type {
  CheckoutAnswer,
  CompleteExtensionAnswer,
  PaidAccountAnswer,
  PaymentVerificationAnswer,
  PortalAnswer,
  RenewAnswer,
  SubscriptionStatusAnswer,
  UpgradeRoomsAnswer,
} from '@ephemera/proto';
import { accountCall, type AccountRecord, type AccountResult } from './account.ts';
import { roomPath } from './routes.ts';
import { sameOriginPath } from './redirects.ts';
import { UI_TEXT } from './texts.ts';
import { PAYMENT_TEXT } from './paymentTexts.ts';

// ---- return addresses (paths of this site; the server appends &session_id={CHECKOUT_SESSION_ID}) ----
export function subscriptionReturnUrls(plan: PaidPlan): { successUrl: string; cancelUrl: string } {
  return { successUrl: `/payment/success?plan=${plan}`, cancelUrl: '/payment/cancelled' };
}
export function extensionReturnUrls(x: { workspaceId: string; roomName: string; days: number; returnUrl?: string }): {
  successUrl: string;
  cancelUrl: string;
} {
  const back = safePath(x.returnUrl) ?? roomPath(x.roomName);
  const q = new URLSearchParams({
    type: 'room_extension',
    workspaceId: x.workspaceId,
    extensionType: String(x.days),
    returnUrl: back,
  });
  return { successUrl: `/payment/success?${q}`, cancelUrl: back };
}
/** A return address: a path of this site (redirects.ts), or null. */
export const safePath = (value: string | null | undefined): string | null => sameOriginPath(value);

// ---- the calls (docs/protocol.md "Payments (billing)") ----
const noToken = <T>(): AccountResult<T> => ({
  ok: false,
  status: 401,
  code: 'NO_AUTH_TOKEN',
  message: PAYMENT_TEXT.noToken,
});
const withToken = <T>(token: string | null | undefined, call: (t: string) => Promise<AccountResult<T>>) =>
  token ? call(token) : Promise.resolve(noToken<T>());

export const paymentsApi = {
  /** renew-subscription: Stripe's billing portal for a subscription Stripe still holds, else a Checkout of the plan */
  renew: (token: string | null, plan: PaidPlan, returnUrl = '/dashboard') =>
    withToken(token, (t) =>
      accountCall<RenewAnswer>(AUTH_API.renewSubscription, PAYMENT_TEXT.renewalFailed, {
        token: t,
        body: { tier: plan, returnUrl, ...subscriptionReturnUrls(plan) },
      }),
    ),
  createCheckout: (token: string | null, account: AccountRecord['user'] | null, plan: PaidPlan) =>
    withToken(token, (t) =>
      accountCall<CheckoutAnswer>(PAYMENTS_API.createCheckoutSession, UI_TEXT.paymentSessionFailed, {
        token: t,
        body: {
          plan,
          ...(account ? { email: account.email, username: account.username, isExistingUser: true } : {}),
          ...subscriptionReturnUrls(plan),
        },
      }),
    ),
  createExtension: (
    token: string | null,
    x: { workspaceId: string; roomName: string; days: number; email?: string; returnUrl?: string },
  ) =>
    withToken(token, (t) =>
      accountCall<CheckoutAnswer>(PAYMENTS_API.createRoomExtensionPayment, PAYMENT_TEXT.extensionFallback, {
        token: t,
        body: {
          workspaceId: x.workspaceId,
          userEmail: x.email,
          extensionType: String(x.days),
          ...extensionReturnUrls(x),
        },
      }),
    ),
  verify: (token: string | null, sessionId: string) =>
    withToken(token, (t) =>
      accountCall<PaymentVerificationAnswer>(PAYMENTS_API.verifySession(sessionId), PAYMENT_TEXT.verificationFailed, {
        token: t,
      }),
    ),
  completeExtension: (
    token: string | null,
    orderId: string,
    body: { workspaceId: string | null; userEmail: string; extensionType: string },
  ) =>
    withToken(token, (t) =>
      accountCall<CompleteExtensionAnswer>(PAYMENTS_API.completeRoomExtension(orderId), PAYMENT_TEXT.completeFailed, {
        token: t,
        body,
      }),
    ),
  /** create-paid-account: the verified checkout applied to the signed-in account; answers its profile */
  paidAccount: (token: string | null, paymentId: string) =>
    withToken(token, (t) =>
      accountCall<PaidAccountAnswer>(AUTH_API.createPaidAccount, UI_TEXT.paidAccountFailed, {
        token: t,
        body: { paymentId },
      }),
    ),
  /** upgrade-rooms: the account's live rooms take its tier */
  upgradeRooms: (token: string | null) =>
    withToken(token, (t) =>
      accountCall<UpgradeRoomsAnswer>(AUTH_API.upgradeRooms, UI_TEXT.upgradeRoomsFailed, { token: t, body: {} }),
    ),
  subscriptionStatus: (token: string | null, email: string | null) =>
    withToken(token, (t) =>
      accountCall<SubscriptionStatusAnswer>(
        PAYMENTS_API.subscriptionStatus(email ?? undefined),
        PAYMENT_TEXT.subscriptionFailed,
        { token: t },
      ),
    ),
  portal: (token: string | null, email: string, returnUrl = '/subscription') =>
    withToken(token, (t) =>
      accountCall<PortalAnswer>(PAYMENTS_API.createPortalSession, PAYMENT_TEXT.portalFallback, {
        token: t,
        body: { email, returnUrl },
      }),
    ),
};
