/**
 * Payment API paths without zod (docs/protocol.md "Payments (billing)"): shared by billing, the ingress, the tests
 * and the browser bundle (the pricing, subscription and payment pages). Bodies and answers: payments.ts.
 */
/** The ingress sends /api/payments/ to billing (as /api/auth/). */
export const PAYMENTS_PREFIX = '/api/payments/';
export const PAYMENTS_API = {
  createCheckoutSession: '/api/payments/create-checkout-session',
  createRoomExtensionPayment: '/api/payments/create-room-extension-payment',
  completeRoomExtension: (orderId: string) => `/api/payments/complete-room-extension/${encodeURIComponent(orderId)}`,
  subscriptionStatus: (email?: string) =>
    `/api/payments/subscription-status${email ? `/${encodeURIComponent(email)}` : ''}`,
  createPortalSession: '/api/payments/create-portal-session',
  verifySession: (sessionId: string) => `/api/payments/verify-session/${encodeURIComponent(sessionId)}`,
  webhook: '/api/payments/webhook',
  /** the spec's subscription/update: refused (403) to everyone; tiers change only through verified provider events */
  subscriptionUpdate: '/api/auth/subscription/update',
} as const;
