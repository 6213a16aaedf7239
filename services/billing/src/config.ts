/**
 * The billing service's configuration (platform/config.ts says how it is used): mail, Google sign-in, the
 * superadmin and payments, which the embedded process reads too, and the distributed process's schema.
 */
import { z } from 'zod';
import { configSpec, envVar, type EnvGroupRule } from '@ephemera/platform/src/config.ts';
import {
  commonEnv,
  databaseUrl,
  internalPort,
  kafkaEnv,
  keyDir,
  masterKey,
  metricsHost,
  metricsPort,
  nodeEnv,
  optionalRedisUrl,
  port,
  rateLimitEnv,
  roomEncryptionEnv,
  serviceSecret,
  serviceUrl,
  superadminEmail,
  trustedProxies,
  wholeNumber,
} from '@ephemera/platform/src/config-vars.ts';
import type { GoogleConfig } from './google.ts';
import type { PaymentsOptions } from './payments/index.ts';

const MAIL = 'Mail (SMTP)';
const GOOGLE = 'Sign-in with Google';
const PAYMENTS = 'Payments (Stripe)';
const httpsOrHttpUrl = () => z.url({ protocol: /^https?$/ });

/** smtp(s)://host[:port], with a user and password together or neither (nodemailer's connection URL). */
const smtpUrl = z.url({ protocol: /^smtps?$/, error: 'not an smtp:// or smtps:// URL' }).refine((s) => {
  try {
    const u = new URL(s);
    return Boolean(u.username) === Boolean(u.password);
  } catch {
    return true;
  } // not a URL: said above
}, 'a user needs its password (smtp://user:password@host:587), or give neither');

export const accountsEnv = {
  SMTP_URL: envVar(smtpUrl.optional(), {
    group: MAIL,
    doc: 'the SMTP server sign-in codes, recovered usernames, receipts and reminders are mailed through; unset: they are printed to the log (development only; a distributed billing service refuses to start without it in production)',
    accepts: 'smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465',
    secret: true,
  }),
  MAIL_FROM: envVar(z.string().default('Ephemera <no-reply@ephemera.local>'), {
    group: MAIL,
    doc: 'the sender of those e-mails: an address the SMTP provider may send for',
    accepts: 'an address, optionally with a name: Name <address>',
  }),
  SUPERADMIN_EMAIL: superadminEmail(),
  OIDC_ISSUER: envVar(httpsOrHttpUrl().default('https://accounts.google.com'), {
    group: GOOGLE,
    doc: 'the OpenID Connect provider (any works; Google by default)',
    accepts: 'an http(s) URL',
  }),
  GOOGLE_CLIENT_ID: envVar(z.string().optional(), {
    group: GOOGLE,
    doc: 'the OAuth client\'s id (Google Cloud console, type "Web application")',
    accepts: 'any text',
  }),
  GOOGLE_CLIENT_SECRET: envVar(z.string().optional(), {
    group: GOOGLE,
    doc: "the OAuth client's secret",
    accepts: 'any text',
    secret: true,
  }),
  GOOGLE_REDIRECT_URI: envVar(httpsOrHttpUrl().optional(), {
    group: GOOGLE,
    doc: 'https://<your host>/api/auth/google/callback, exactly as registered with the provider',
    accepts: 'an http(s) URL',
  }),
};
export const googleGroup: EnvGroupRule = {
  what: 'sign-in with Google',
  members: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_REDIRECT_URI'],
  required: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_REDIRECT_URI'],
};

export const paymentsEnv = {
  STRIPE_SECRET_KEY: envVar(
    z
      .string()
      .regex(/^(sk|rk)_/, 'a Stripe secret key starts with sk_ (or rk_)')
      .optional(),
    {
      group: PAYMENTS,
      doc: 'Stripe\'s secret key; unset: payments are off, the payment routes answer 503 "Payments are not configured"',
      accepts: 'sk_live_..., sk_test_... (or a restricted rk_ key)',
      secret: true,
    },
  ),
  STRIPE_WEBHOOK_SECRET: envVar(
    z
      .string()
      .regex(/^whsec_/, 'a webhook signing secret starts with whsec_')
      .optional(),
    {
      group: PAYMENTS,
      doc: 'the signing secret of the webhook endpoint https://<your host>/api/payments/webhook',
      accepts: 'whsec_...',
      secret: true,
    },
  ),
  STRIPE_API_BASE: envVar(httpsOrHttpUrl().optional(), {
    group: PAYMENTS,
    doc: 'another Stripe API server (stripe-mock in tests); unset: Stripe',
    accepts: 'an http(s) URL',
    testOnly: true,
  }),
  STRIPE_PRICE_PRO: envVar(
    z
      .string()
      .regex(/^price_/, 'a price id starts with price_')
      .optional(),
    {
      group: PAYMENTS,
      doc: 'the Stripe price of your own monthly pro product; unset: an inline $9/month price',
      accepts: 'price_...',
    },
  ),
  STRIPE_PRICE_BUSINESS: envVar(
    z
      .string()
      .regex(/^price_/, 'a price id starts with price_')
      .optional(),
    {
      group: PAYMENTS,
      doc: 'the Stripe price of your own monthly business product; unset: an inline $19/month price',
      accepts: 'price_...',
    },
  ),
  PUBLIC_URL: envVar(httpsOrHttpUrl().optional(), {
    group: PAYMENTS,
    doc: "the site's public address, for Stripe's return links and the subscription page's address in mails (never taken from a request). Unset: embedded uses its own configured address, a distributed billing service refuses checkouts",
    accepts: 'an http(s) URL (https://chat.example.com)',
  }),
  RENEWAL_REMINDER_INTERVAL_MS: envVar(wholeNumber(0).default(3_600_000), {
    group: PAYMENTS,
    doc: 'how often renewal reminders are mailed and receipts the SMTP server refused are retried; 0: never',
    accepts: 'a whole number of milliseconds (0: never)',
  }),
};
/** Payments need the key and the webhook's secret (without it no renewal, refund or failed payment would arrive). */
export const stripeGroup: EnvGroupRule = {
  what: 'Stripe payments',
  members: [
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'STRIPE_API_BASE',
    'STRIPE_PRICE_PRO',
    'STRIPE_PRICE_BUSINESS',
  ],
  required: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
};

type AccountsConfig = z.output<z.ZodObject<typeof accountsEnv>>;
type PaymentsConfig = z.output<z.ZodObject<typeof paymentsEnv>>;

/** Google sign-in from a parsed configuration: on with its three settings (the group rule refused half of them). */
export function googleOf(config: AccountsConfig): GoogleConfig | null {
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET || !config.GOOGLE_REDIRECT_URI) return null;
  return {
    issuer: config.OIDC_ISSUER,
    clientId: config.GOOGLE_CLIENT_ID,
    clientSecret: config.GOOGLE_CLIENT_SECRET,
    redirectUri: config.GOOGLE_REDIRECT_URI,
  };
}

/** Payments from a parsed configuration: off without STRIPE_SECRET_KEY. */
export function paymentsOf(config: PaymentsConfig): PaymentsOptions {
  const stripe = config.STRIPE_SECRET_KEY
    ? {
        secretKey: config.STRIPE_SECRET_KEY,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? null,
        apiBase: config.STRIPE_API_BASE ?? null,
        priceIds: {
          ...(config.STRIPE_PRICE_PRO ? { pro: config.STRIPE_PRICE_PRO } : {}),
          ...(config.STRIPE_PRICE_BUSINESS ? { business: config.STRIPE_PRICE_BUSINESS } : {}),
        },
      }
    : null;
  return { stripe, publicUrl: config.PUBLIC_URL ?? null, reminderSweepMs: config.RENEWAL_REMINDER_INTERVAL_MS };
}

/** The distributed billing process (main.ts). */
export const billingConfig = configSpec(
  'billing',
  {
    ...commonEnv,
    PORT: port(8204),
    SERVICE_SECRET: serviceSecret(),
    INTERNAL_PORT: internalPort(),
    DATABASE_URL: databaseUrl(),
    ...kafkaEnv,
    ROOM_URL: serviceUrl("the room service's internal listener"),
    REDIS_URL: optionalRedisUrl('rate-limit counters shared by every replica; unset: each process counts alone'),
    TRUSTED_PROXIES: trustedProxies(),
    METRICS_PORT: metricsPort(9204),
    METRICS_HOST: metricsHost(),
    ACCOUNT_KEY_DIR: keyDir(
      './data/account-keys',
      'one data key per account: a volume of the billing service only (docs/crypto.md)',
    ),
    ACCOUNT_MASTER_KEY: masterKey(
      'wraps every account key. Unset outside production: an insecure development key, with a warning',
    ),
    NODE_ENV: nodeEnv(),
    ...accountsEnv,
    ...paymentsEnv,
    ...rateLimitEnv,
    ...roomEncryptionEnv,
  },
  { groups: [googleGroup, stripeGroup], requiredInProduction: ['ACCOUNT_MASTER_KEY', 'SMTP_URL'] },
);
