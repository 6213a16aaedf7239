/**
 * Configuration validated at start: the processes' schemas refuse a bad value by name with what they accept, refuse
 * half of a set that only works whole naming what is missing, and never print a secret. Pure parsing: no server.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type ConfigSpec } from '@ephemera/platform/src/config.ts';
import { rateLimitsOf } from '@ephemera/platform/src/config-vars.ts';
import { embeddedConfig } from '../config.ts';
import { callOptionsFromEnv, gatewayConfig } from '@ephemera/gateway/src/config.ts';
import { billingConfig, googleOf, paymentsOf } from '@ephemera/billing/src/config.ts';
import { adminAnalyticsConfig, adminSettingsFromEnv } from '@ephemera/admin-analytics/src/config.ts';
import { messagingConfig } from '@ephemera/messaging/src/config.ts';

/** what a distributed process needs at the least, so each test varies only what it is about */
const DISTRIBUTED = {
  SERVICE_SECRET: 'x'.repeat(32),
  DATABASE_URL: 'postgres://u:p@db:5432/ephemera',
  KAFKA_BROKERS: 'kafka:9092',
  REDIS_URL: 'redis://redis:6379',
  ROOM_URL: 'http://room:10201',
  MESSAGING_URL: 'http://messaging:10202',
  PRESENCE_URL: 'http://presence:10203',
  BILLING_URL: 'http://billing:10204',
};

function refusal(spec: ConfigSpec, env: Record<string, string>): string {
  try {
    loadConfig(spec, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`${spec.process} accepted ${JSON.stringify(env)}`);
}

describe('a bad value stops the process, named, with what it got and what it accepts', () => {
  it('the values that once fell back to defaults silently', () => {
    const embedded = refusal(embeddedConfig as unknown as ConfigSpec, {
      CALL_RING_TIMEOUT_MS: 'thirty seconds',
      TURN_CREDENTIAL_TTL_SECONDS: '-5',
      ADMIN_BACKUP_MAX_BYTES: '1GB',
    });
    expect(embedded).toMatch(
      /CALL_RING_TIMEOUT_MS: got "thirty seconds", refused .*Accepts: a whole number of milliseconds from 1000 to 600000/,
    );
    expect(embedded).toMatch(/TURN_CREDENTIAL_TTL_SECONDS: got "-5", refused .*Accepts: a whole number of seconds/);
    expect(embedded).toMatch(/ADMIN_BACKUP_MAX_BYTES: got "1GB", refused .*Accepts: a whole number of bytes/);
    expect(refusal(gatewayConfig as unknown as ConfigSpec, { ...DISTRIBUTED, CALL_RING_TIMEOUT_MS: '0' })).toMatch(
      /CALL_RING_TIMEOUT_MS: got "0"/,
    );
    expect(
      refusal(adminAnalyticsConfig as unknown as ConfigSpec, { ...DISTRIBUTED, ADMIN_BACKUP_MAX_BYTES: 'lots' }),
    ).toMatch(/ADMIN_BACKUP_MAX_BYTES: got "lots"/);
    // the paths a module started in-process takes (they read the same declarations)
    expect(() => callOptionsFromEnv({ TURN_CREDENTIAL_TTL_SECONDS: 'an hour' })).toThrow(
      /TURN_CREDENTIAL_TTL_SECONDS: got "an hour"/,
    );
    expect(() => adminSettingsFromEnv({ ADMIN_AUTO_DELETE_INTERVAL_MS: '-1' })).toThrow(
      /ADMIN_AUTO_DELETE_INTERVAL_MS: got "-1"/,
    );
  });

  it('every problem at once, and a good set parses to what the modules take', () => {
    const message = refusal(gatewayConfig as unknown as ConfigSpec, {
      ...DISTRIBUTED,
      GATEWAY_ENGINE: 'fast',
      STUN_URLS: 'http://stun.example.com',
      RATE_LIMIT_EVENTS_PER_USER: '0/10',
    });
    expect(message).toMatch(/GATEWAY_ENGINE: got "fast".*Accepts: auto, uws or node/);
    expect(message).toMatch(/STUN_URLS: got "http:\/\/stun.example.com".*each must start with stun: or stuns:/);
    expect(message).toMatch(/RATE_LIMIT_EVENTS_PER_USER: got "0\/10"/);
    const config = loadConfig(gatewayConfig, {
      ...DISTRIBUTED,
      STUN_URLS: 'none',
      TURN_URLS: 'turn:t:3478',
      TURN_SECRET: 's',
      RATE_LIMIT_EVENTS_PER_USER: '5/10',
      TRUSTED_PROXIES: '',
    });
    expect(config).toMatchObject({
      STUN_URLS: [],
      TURN_URLS: ['turn:t:3478'],
      CALL_RING_TIMEOUT_MS: 30_000,
      GATEWAY_ENGINE: 'auto',
      TRUSTED_PROXIES: [],
    });
    expect(rateLimitsOf(config).eventsPerUser).toEqual({ points: 5, durationSec: 10 });
  });

  it('a required variable that is missing, and what production requires', () => {
    expect(refusal(gatewayConfig as unknown as ConfigSpec, {})).toMatch(
      /SERVICE_SECRET is missing: it is required\. Accepts: at least 32 characters/,
    );
    const production = refusal(billingConfig as unknown as ConfigSpec, { ...DISTRIBUTED, NODE_ENV: 'production' });
    expect(production).toMatch(/ACCOUNT_MASTER_KEY is missing: required when NODE_ENV=production/);
    expect(production).toMatch(/SMTP_URL is missing: required when NODE_ENV=production/);
  });
});

describe('half of a set that only works whole is refused, naming what is missing', () => {
  it('Google sign-in: the client id alone', () => {
    const message = refusal(billingConfig as unknown as ConfigSpec, {
      ...DISTRIBUTED,
      GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com',
    });
    expect(message).toMatch(
      /GOOGLE_CLIENT_SECRET and GOOGLE_REDIRECT_URI are missing: sign-in with Google needs .* and GOOGLE_CLIENT_ID is set/,
    );
    expect(googleOf(loadConfig(billingConfig, DISTRIBUTED))).toBeNull();
  });

  it('Stripe: a key without its webhook secret, a price without a key', () => {
    expect(refusal(embeddedConfig as unknown as ConfigSpec, { STRIPE_SECRET_KEY: 'sk_test_123' })).toMatch(
      /STRIPE_WEBHOOK_SECRET is missing: Stripe payments needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET together, and STRIPE_SECRET_KEY is set/,
    );
    expect(refusal(embeddedConfig as unknown as ConfigSpec, { STRIPE_PRICE_PRO: 'price_123' })).toMatch(
      /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are missing.*STRIPE_PRICE_PRO is set/,
    );
    const payments = paymentsOf(
      loadConfig(embeddedConfig, { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_123' }),
    );
    expect(payments.stripe).toMatchObject({ secretKey: 'sk_test_123', webhookSecret: 'whsec_123' });
  });

  it('SMTP: a user without a password', () => {
    expect(
      refusal(billingConfig as unknown as ConfigSpec, {
        ...DISTRIBUTED,
        SMTP_URL: 'smtp://apikey@smtp.example.com:587',
      }),
    ).toMatch(/SMTP_URL: got a value of \d+ characters \(a secret: not shown\), refused \(a user needs its password/);
  });

  it('TURN and S3', () => {
    expect(refusal(embeddedConfig as unknown as ConfigSpec, { TURN_URLS: 'turn:turn.example.com:3478' })).toMatch(
      /TURN_SECRET is missing: TURN needs TURN_URLS and TURN_SECRET together/,
    );
    const s3 = refusal(messagingConfig as unknown as ConfigSpec, {
      ...DISTRIBUTED,
      S3_ENDPOINT: 'http://s3:7070',
      S3_ACCESS_KEY_ID: 'id',
    });
    expect(s3).toMatch(
      /S3_BUCKET is missing: S3 file storage needs S3_BUCKET, and S3_ENDPOINT and S3_ACCESS_KEY_ID are set/,
    );
    expect(s3).toMatch(/S3_SECRET_ACCESS_KEY is missing/);
  });
});

describe('a secret is never printed', () => {
  it('neither its value nor a message quoting it', () => {
    const secrets = {
      SMTP_URL: 'smtp://apikey:hunter2-smtp-password@smtp.example.com:587x',
      STRIPE_SECRET_KEY: 'pk_live_not-a-secret-key-but-close',
      STRIPE_WEBHOOK_SECRET: 'wh_missing_prefix_value',
      GOOGLE_CLIENT_SECRET: 'google-client-secret-value',
      SERVICE_SECRET: 'too-short-secret',
      ROOM_MASTER_KEY: 'not-a-master-key-value',
      DATABASE_URL: 'mysql://root:db-password-value@db/x',
    };
    const message = [
      refusal(billingConfig as unknown as ConfigSpec, { ...DISTRIBUTED, ...secrets }),
      refusal(messagingConfig as unknown as ConfigSpec, { ...DISTRIBUTED, ...secrets }),
    ].join('\n');
    for (const name of [
      'SMTP_URL',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'SERVICE_SECRET',
      'ROOM_MASTER_KEY',
      'DATABASE_URL',
    ])
      expect(message).toContain(`${name}: got a value of`);
    expect(message).toMatch(/GOOGLE_CLIENT_ID and GOOGLE_REDIRECT_URI are missing/);
    for (const value of Object.values(secrets)) expect(message).not.toContain(value);
    for (const fragment of ['hunter2', 'db-password-value', 'not-a-secret-key'])
      expect(message).not.toContain(fragment);
  });
});
