/**
 * A read once what it shows has stopped moving: two reads `windowMs` apart that agree on `key`. For figures a
 * projection follows the log with, when a gathering consumer (distributed admin-analytics: up to ~2 s) may still
 * bring earlier traffic in; `key` leaves out what moves by itself (uptime, error rate).
 */
import { setTimeout as sleep } from 'node:timers/promises';

export async function settledRead<T>(
  read: () => Promise<T>,
  key: (value: T) => string,
  opts: { windowMs: number; tries: number; what: string },
): Promise<T> {
  let last = await read();
  for (let i = 0; i < opts.tries; i++) {
    await sleep(opts.windowMs);
    const now = await read();
    if (key(now) === key(last)) return now;
    last = now;
  }
  throw new Error(`${opts.what} did not settle`);
}
