import { randomBytes, randomUUID, createHash } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** URL-safe random id (base62), 16 characters = ~95 bits. */
export function newId(length = 16): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62]; // 248 = 4*62: rejection keeps the distribution uniform
  }
  return out.length === length ? out : newId(length);
}

export const newEventId = (): string => randomUUID();

/** A bearer token for a room user: 256 bits, shown to the client once; only its sha256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
