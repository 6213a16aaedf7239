/** Room passwords: scrypt with a random salt (docs/product/security.md S7); comparison in constant time. */
import { scrypt, randomBytes, timingSafeEqual } from 'node:crypto';

const N = 16384,
  R = 8,
  P = 1,
  KEYLEN = 32;

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N, r: R, p: P }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, , , , salt64, key64] = stored.split('$');
  if (scheme !== 'scrypt' || !salt64 || !key64) return false;
  const expected = Buffer.from(key64, 'base64');
  const actual = await derive(password, Buffer.from(salt64, 'base64'));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
