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
 *
 * Second, smaller: each connection checks its in-flight requests for a timeout every min(requestTimeout, 100 ms),
 * 10 wakeups a second per connection for the life of the process (a service holds several). The timeout is 30 s
 * (kafkajs' default); checking once a second enforces it at most a second late.
 *
 * Third: the consumers' fetch wait is long (kafka.ts), but kafkajs also sleeps that long before fetching again while
 * none of its newly assigned partitions has a resolved offset yet, which made every subscribe (a service's start, a
 * test's caughtUp) slower by the wait. Until a group generation's first fetch reaches the broker, the wait is kept
 * at FIRST_FETCH_WAIT_MS; then it is the configured one.
 */
import { createRequire } from 'node:module';

interface InflightRequest {
  sentAt: number;
  requestTimeout: number;
  timeoutRequest(): void;
}
interface RequestQueueLike {
  pending: unknown[];
  inflight: Map<number, InflightRequest>;
  enforceRequestTimeout: boolean;
  requestTimeout: number;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  destroy(): void;
  isConnected(): boolean;
}

const TIMEOUT_CHECK_MS = 1_000;
const FIRST_FETCH_WAIT_MS = 500;

interface ConsumerGroupLike {
  maxWaitTime: number;
  generationId: number | null;
  fetch(nodeId: number): Promise<unknown[]>;
  /** the configured wait, and the generation whose fetches reached the broker */
  fetchWait?: { configured: number; fetchingGeneration: number | null };
}

const require = createRequire(import.meta.url);
const version = (require('kafkajs/package.json') as { version: string }).version;
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
  prototype: RequestQueueLike & { idleFixed?: boolean };
};
const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup.js') as {
  prototype: ConsumerGroupLike & { firstFetchFixed?: boolean };
};

if (!RequestQueue.prototype.idleFixed) {
  const schedule = RequestQueue.prototype.scheduleCheckPendingRequests;
  if (typeof schedule !== 'function')
    throw new Error(
      `kafkajs ${version}: RequestQueue.scheduleCheckPendingRequests not found; review kafkajs-idle-fix.ts`,
    );
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleOnlyWhenPending(this: RequestQueueLike) {
    if (this.pending.length === 0) return;
    schedule.call(this);
  };
  if (typeof RequestQueue.prototype.scheduleRequestTimeoutCheck !== 'function')
    throw new Error(
      `kafkajs ${version}: RequestQueue.scheduleRequestTimeoutCheck not found; review kafkajs-idle-fix.ts`,
    );
  // kafkajs' own body (src/network/requestQueue/index.js), with the check interval raised.
  RequestQueue.prototype.scheduleRequestTimeoutCheck = function checkTimeoutsEverySecond(this: RequestQueueLike) {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    this.requestTimeoutIntervalId = setInterval(
      () => {
        this.inflight.forEach((request) => {
          if (Date.now() - request.sentAt > request.requestTimeout) request.timeoutRequest();
        });
        if (!this.isConnected()) this.destroy();
      },
      Math.min(this.requestTimeout, TIMEOUT_CHECK_MS),
    );
  };
  RequestQueue.prototype.idleFixed = true;
}

if (!ConsumerGroup.prototype.firstFetchFixed) {
  const fetch = ConsumerGroup.prototype.fetch;
  if (typeof fetch !== 'function')
    throw new Error(`kafkajs ${version}: ConsumerGroup.fetch not found; review kafkajs-idle-fix.ts`);
  ConsumerGroup.prototype.fetch = async function fetchWaitingShortUntilFetching(
    this: ConsumerGroupLike,
    nodeId: number,
  ) {
    const wait = (this.fetchWait ??= { configured: this.maxWaitTime, fetchingGeneration: null });
    this.maxWaitTime =
      wait.fetchingGeneration !== null && wait.fetchingGeneration === this.generationId
        ? wait.configured
        : Math.min(wait.configured, FIRST_FETCH_WAIT_MS);
    const batches = await fetch.call(this, nodeId);
    // kafkajs answers [] without asking the broker while no partition is ready; one batch per partition otherwise
    if (batches.length > 0) wait.fetchingGeneration = this.generationId;
    return batches;
  };
  ConsumerGroup.prototype.firstFetchFixed = true;
}
