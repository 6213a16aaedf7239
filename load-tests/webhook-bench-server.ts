/**
 * The server half of webhook-bench.ts, a child process of its own so that its CPU (and its embedded PostgreSQL's) is
 * the server's alone: the embedded app with STRIPE_* pointed at stripe-mock and receipts mailed over SMTP (Mailpit).
 * stripe-mock is stateless (every session it returns is open and unpaid), so, as in test/payments, the provider's
 * state the handlers decide from is recorded here, sent by the bench over IPC; each read still makes the SDK's real
 * HTTP request to stripe-mock first, so the figures carry the provider round trip a production webhook makes.
 * IPC (parent -> child, each answered with { id, ... }): accounts { n }, state { sessions, subscriptions },
 * settle (every receipt sent), verify { accountIds }, stop.
 * Env: DATA_DIR, SMTP_URL, STRIPE_SECRET_KEY, STRIPE_API_BASE, STRIPE_WEBHOOK_SECRET (set by webhook-bench.ts).
 */
import { createLogger } from '@ephemera/platform';
import type { CheckoutState, Payments, SubscriptionState } from '@ephemera/billing';
import { startEmbedded } from '../services/embedded/app.ts';

type Revived<T> = Omit<T, 'currentPeriodEnd'> & { currentPeriodEnd: string | null };
type Request =
  | { id: number; type: 'accounts'; n: number }
  | { id: number; type: 'state'; sessions: CheckoutState[]; subscriptions: Revived<SubscriptionState>[] }
  | { id: number; type: 'settle' | 'stop' }
  | { id: number; type: 'verify'; accountIds: string[] };

const sessions = new Map<string, CheckoutState>();
const subscriptions = new Map<string, SubscriptionState>();
let payments: Payments | null = null;

const app = await startEmbedded({
  port: 0,
  host: '127.0.0.1',
  dataDir: process.env.DATA_DIR!,
  logger: createLogger('webhook-bench', process.env.LOG_LEVEL ?? 'silent'),
  smtpUrl: process.env.SMTP_URL,
  google: null,
  payments: {
    stripe: {
      secretKey: process.env.STRIPE_SECRET_KEY!,
      webhookSecret: process.env.STRIPE_WEBHOOK_SECRET!,
      apiBase: process.env.STRIPE_API_BASE!,
    },
    stateReader: (provider) => ({
      checkoutSession: async (id) => {
        await provider.checkoutSession(id);
        return sessions.get(id) ?? null;
      },
      subscription: async (id) => {
        await provider.subscription(id);
        return subscriptions.get(id) ?? null;
      },
      charge: (id) => provider.charge(id),
    }),
    expirySweepMs: 0,
    reminderSweepMs: 0,
    onCreated: (p) => {
      payments = p;
    },
  },
});

async function answer(msg: Request): Promise<unknown> {
  switch (msg.type) {
    case 'accounts': {
      // The ordinary sign-up path (a code, then register), minus the mail: codes.issue only stores the code.
      const ids: string[] = [];
      for (let i = 0; i < msg.n; i++) {
        const email = `webhook-bench-${i}-${Date.now().toString(36)}@example.test`;
        const code = await app.billing.codes.issue(email);
        ids.push((await app.billing.register({ email, username: `bench${i}`, code }, null)).user.id);
      }
      return { accountIds: ids };
    }
    case 'state':
      for (const s of msg.sessions) sessions.set(s.id, s);
      for (const s of msg.subscriptions)
        subscriptions.set(s.id, { ...s, currentPeriodEnd: s.currentPeriodEnd ? new Date(s.currentPeriodEnd) : null });
      return {};
    case 'settle':
      await payments!.receipts.settled();
      return {};
    case 'verify': {
      const rows = await Promise.all(msg.accountIds.map((id) => app.billing.accounts.byId(id)));
      return { accounts: rows.map((a) => (a ? { id: a.id, tier: a.tier, lastSeq: a.lastSeq } : null)) };
    }
    case 'stop':
      await app.stop();
      return {};
  }
}

process.on('message', (msg: Request) => {
  answer(msg).then(
    (body) =>
      process.send!({ id: msg.id, ok: true, ...(body as object) }, () => {
        if (msg.type === 'stop') process.exit(0);
      }),
    (err) => process.send!({ id: msg.id, ok: false, error: String((err as Error).stack ?? err) }),
  );
});
process.send!({ id: 0, ok: true, url: app.url });
