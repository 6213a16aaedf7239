/**
 * kafkajs 2.2.4 (its last release) wakes every process up about a thousand times a second while nothing happens:
 * RequestQueue.checkPendingRequests() always ends with scheduleCheckPendingRequests(), which arms a timer even when
 * no request is queued (the delay is then throttledUntil - now, negative, so 1 ms), and that timer calls
 * checkPendingRequests() again: a 1 ms loop per broker connection, forever, from the first response on. Measured
 * with one idle consumer: ~870 wakeups/s and 2-3 % of a core; with this fix the same consumer wakes for its fetches
 * and heartbeats only.
 *
 * The fix keeps kafkajs' own logic and skips the timer when nothing is pending (a request queued later schedules
 * its own check in push()). Applied once, on load, to the RequestQueue kafkajs itself uses (same CommonJS module).
 */
import { createRequire } from 'node:module';

interface RequestQueueLike { pending: unknown[]; scheduleCheckPendingRequests(): void }

const require = createRequire(import.meta.url);
const version = (require('kafkajs/package.json') as { version: string }).version;
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as { prototype: RequestQueueLike & { idleFixed?: boolean } };

if (!RequestQueue.prototype.idleFixed) {
  const schedule = RequestQueue.prototype.scheduleCheckPendingRequests;
  if (typeof schedule !== 'function') throw new Error(`kafkajs ${version}: RequestQueue.scheduleCheckPendingRequests not found; review kafkajs-idle-fix.ts`);
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleOnlyWhenPending(this: RequestQueueLike) {
    if (this.pending.length === 0) return;
    schedule.call(this);
  };
  RequestQueue.prototype.idleFixed = true;
}

export const kafkajsIdleFixFor = version;
