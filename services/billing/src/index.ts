/**
 * The billing service's package entry (@ephemera/billing): what services/embedded, the tests and other services use.
 * It only re-exports: the module (module.ts) and the process (server.ts) import their parts directly, never this file,
 * so nothing here imports back into what re-exports it.
 */
export { BillingService } from './billing-service.ts';
export { ContactMessages } from './contact.ts';
export { projectContact } from './contact-repository.ts';
export { GoogleSignIn, type GoogleConfig } from './google.ts';
export { publicBillingRouter, internalBillingRouter } from './http.ts';
export { AccountRoomsClient } from './clients.ts';
export {
  paymentsRouter,
  paymentWebhookRouter,
  StripeProvider,
  type PaymentsOptions,
  type PaymentProvider,
  type ProviderStateReader,
  type CheckoutState,
  type SubscriptionState,
  type ChargeState,
} from './payments/index.ts';
export { reminderDue, heldSubscriptionOf, type Payments, type SweepResult } from './payments/index.ts';
export { AdminAccounts } from './admin-accounts.ts';
export { AdminBillingSystem } from './admin-system.ts';
export { BILLING_MIGRATIONS, type BillingModule, type BillingOptions, startBillingModule } from './module.ts';
export { startBillingServer } from './server.ts';
