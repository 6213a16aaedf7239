import { z } from 'zod';
import {
  loadConfig, commonEnv, kafkaEnv, trustedProxies, metricsHost, port, createLogger, startTelemetry, stopOnSignals, parseMasterKey,
  serviceSecret, internalPort, internalPortOf,
} from '@ephemera/platform';
import { startBillingServer } from './server.ts';
import { paymentsFromEnv } from './payments/index.ts';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8204),
  /** the shared secret of internal calls (docs/security.md) and the internal listener's port (unset: PORT + 2000) */
  SERVICE_SECRET: serviceSecret,
  INTERNAL_PORT: internalPort,
  DATABASE_URL: z.string().url(),
  ...kafkaEnv,
  /** the room service's internal listener */
  ROOM_URL: z.string().url(),
  REDIS_URL: z.string().url().optional(),
  TRUSTED_PROXIES: trustedProxies,
  METRICS_PORT: port(9204),
  METRICS_HOST: metricsHost,
  /** the account keys: a volume of this service only (docs/crypto.md) */
  ACCOUNT_KEY_DIR: z.string().min(1).default('./data/account-keys'),
  /** 32 bytes (hex or base64) wrapping every account key. Required when NODE_ENV=production. */
  ACCOUNT_MASTER_KEY: z.string().optional(),
  /** smtp(s)://user:pass@host:port; absent: e-mails are written to the log (never in production) */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Ephemera <no-reply@ephemera.local>'),
  SUPERADMIN_EMAIL: z.string().optional(),
  OIDC_ISSUER: z.string().url().default('https://accounts.google.com'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** the public address of /api/auth/google/callback, as registered with Google */
  GOOGLE_REDIRECT_URI: z.string().url().optional(),
  NODE_ENV: z.string().optional(),
  /** payments (Stripe): without the secret key the payment routes answer 503 */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** another Stripe API server, e.g. http://127.0.0.1:12111 (stripe-mock); empty: Stripe */
  STRIPE_API_BASE: z.union([z.literal(''), z.string().url()]).optional(),
  STRIPE_PRICE_PRO: z.string().optional(),
  STRIPE_PRICE_BUSINESS: z.string().optional(),
  /** the site's public address, for the provider's return links (https://chat.example.com) */
  PUBLIC_URL: z.union([z.literal(''), z.string().url()]).optional(),
  /** how often renewal reminders are mailed and failed receipts retried (one hour; 0: never) */
  RENEWAL_REMINDER_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
}));
if (config.NODE_ENV === 'production' && !config.ACCOUNT_MASTER_KEY) throw new Error('ACCOUNT_MASTER_KEY is required in production');
if (config.NODE_ENV === 'production' && !config.SMTP_URL) throw new Error('SMTP_URL is required in production: sign-in codes must be mailed');
startTelemetry('billing', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('billing', config.LOG_LEVEL);
const google = config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET && config.GOOGLE_REDIRECT_URI
  ? { issuer: config.OIDC_ISSUER, clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET, redirectUri: config.GOOGLE_REDIRECT_URI }
  : null;
const server = await startBillingServer({
  port: config.PORT, databaseUrl: config.DATABASE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined,
  logger, roomUrl: config.ROOM_URL, redisUrl: config.REDIS_URL, trustedProxies: config.TRUSTED_PROXIES,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST }, accountKeyDir: config.ACCOUNT_KEY_DIR,
  masterKey: config.ACCOUNT_MASTER_KEY ? parseMasterKey(config.ACCOUNT_MASTER_KEY) : undefined,
  smtpUrl: config.SMTP_URL, mailFrom: config.MAIL_FROM, superadminEmail: config.SUPERADMIN_EMAIL ?? null, google,
  payments: paymentsFromEnv({ ...config } as unknown as NodeJS.ProcessEnv),
  serviceSecret: config.SERVICE_SECRET, internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT),
});
logger.info({ port: server.port, internalPort: server.internalPort }, 'billing service listening');
stopOnSignals(server.stop, logger);
