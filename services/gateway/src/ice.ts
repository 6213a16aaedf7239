/**
 * ICE servers for calls, from configuration (README "Calls"): STUN addresses as they are, TURN addresses with
 * time-limited credentials in the TURN REST form every common TURN server accepts (coturn `use-auth-secret`,
 * pion `NewLongTermAuthHandler`): username = "{expiry unix seconds}:{userId}", credential = base64(HMAC-SHA1(secret,
 * username)). The secret never leaves the server; a leaked credential stops working at its expiry.
 */
import { createHmac } from 'node:crypto';
import type { IceServer } from '@ephemera/proto';

export interface IceConfig {
  stunUrls: string[];
  turnUrls: string[];
  /** the TURN server's shared secret (coturn static-auth-secret); without it no TURN entry is served */
  turnSecret?: string;
  turnCredentialTtlSeconds: number;
}

/** The spec's "two public STUN servers" when nothing is configured. */
export const DEFAULT_STUN_URLS = ['stun:stun.l.google.com:19302', 'stun:stun1.l.google.com:19302'];

const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/**
 * STUN_URLS (comma-separated; unset: the two public ones; "none" or empty: none), TURN_URLS, TURN_SECRET,
 * TURN_CREDENTIAL_TTL_SECONDS (default 1 h). Read from process.env by name (test/ops/code-facts.ts finds them there).
 */
export function iceConfigFromEnv(): IceConfig {
  const stunEnv = process.env.STUN_URLS;
  const stun = stunEnv === undefined ? DEFAULT_STUN_URLS : stunEnv.trim() === 'none' ? [] : list(stunEnv);
  const ttl = Number(process.env.TURN_CREDENTIAL_TTL_SECONDS ?? 3600);
  return {
    stunUrls: stun, turnUrls: list(process.env.TURN_URLS), turnSecret: process.env.TURN_SECRET || undefined,
    turnCredentialTtlSeconds: Number.isInteger(ttl) && ttl > 0 ? ttl : 3600,
  };
}

export function turnCredential(secret: string, userId: string, expiresAtSeconds: number): { username: string; credential: string } {
  const username = `${expiresAtSeconds}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

export function iceServersFor(userId: string, config: IceConfig, nowMs = Date.now()): IceServer[] {
  const servers: IceServer[] = [];
  if (config.stunUrls.length > 0) servers.push({ urls: config.stunUrls });
  if (config.turnUrls.length > 0 && config.turnSecret) {
    const expires = Math.floor(nowMs / 1000) + config.turnCredentialTtlSeconds;
    servers.push({ urls: config.turnUrls, ...turnCredential(config.turnSecret, userId, expires) });
  }
  return servers;
}
