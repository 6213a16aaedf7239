/**
 * The provider's current state as the payment tests script it. stripe-mock answers every retrieve with the same
 * fixture (an unpaid, open checkout session; an active subscription of someone else; a charge of no customer with
 * nothing refunded), so the tests record what "Stripe" would say now and the billing service reads it through its
 * ProviderStateReader port. Objects not recorded here are read from stripe-mock itself through the real adapter (the
 * SDK over HTTP). Everything else (creating checkout and portal sessions, webhook signatures) is the real adapter
 * against stripe-mock.
 */
import type {
  ChargeState,
  CheckoutState,
  PaymentProvider,
  ProviderStateReader,
  SubscriptionState,
} from '@ephemera/billing';

export class ProviderState {
  private readonly sessions = new Map<string, CheckoutState>();
  private readonly subscriptions = new Map<string, SubscriptionState>();
  private readonly charges = new Map<string, ChargeState>();
  /** how many times the service read each object (a test can check it read before deciding) */
  readonly reads = new Map<string, number>();

  setSession(state: CheckoutState): void {
    this.sessions.set(state.id, state);
  }
  setSubscription(state: SubscriptionState): void {
    this.subscriptions.set(state.id, state);
  }
  setCharge(state: ChargeState): void {
    this.charges.set(state.id, state);
  }

  reader(provider: PaymentProvider): ProviderStateReader {
    return {
      checkoutSession: async (id) => {
        this.count(id);
        return this.sessions.get(id) ?? provider.checkoutSession(id);
      },
      subscription: async (id) => {
        this.count(id);
        return this.subscriptions.get(id) ?? provider.subscription(id);
      },
      charge: async (id) => {
        this.count(id);
        return this.charges.get(id) ?? provider.charge(id);
      },
    };
  }

  private count(id: string) {
    this.reads.set(id, (this.reads.get(id) ?? 0) + 1);
  }
}
