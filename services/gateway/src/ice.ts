/**
 * ICE servers for calls, from configuration (config.ts: STUN_URLS, TURN_URLS, TURN_SECRET,
 * TURN_CREDENTIAL_TTL_SECONDS): STUN addresses as they are, TURN addresses with time-limited credentials in the TURN REST form every common TURN server accepts (coturn `use-auth-secret`,
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

export function turnCredential(
  secret: string,
  userId: string,
  expiresAtSeconds: number,
): { username: string; credential: string } {
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
