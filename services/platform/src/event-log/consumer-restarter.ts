/**
 * Keeps a kafkajs consumer running after a crash kafkajs gives up on.
 *
 * kafkajs restarts a crashed consumer only when the crash's cause is retriable (consumer/index.js, onCrash). A
 * broker outage also produces causes that are not: "Failed to find group coordinator"
 * (KafkaJSGroupCoordinatorNotFound) when a rejoin runs out of retries while the broker is down, for one. kafkajs
 * then leaves the consumer disconnected for good: the subscription stops handling records without a word, and
 * whatever waits for it to catch up (messaging's trustReadModel, after a failed append) waits until the process
 * is restarted. The failure drill's "Kafka stopped for 10 s" found it.
 *
 * This starts such a consumer again (connect, run, re-apply the seeks that decide where it resumes) with a growing
 * back-off, until it runs or the subscription stops. The subscription tells kafkajs never to restart by itself
 * (`retry.restartOnFailure`), so every crash comes here: kafkajs' own restarts skip the seeks, and two restarters of
 * one consumer would make two runners that both fetch.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer } from 'kafkajs';
import type { Logger } from '../log.ts';

export interface Seek {
  topic: string;
  partition: number;
  offset: string;
}

export interface ConsumerRestarterOptions {
  consumer: Consumer;
  groupId: string;
  logger: Logger;
  /** connect() and run() with the subscription's handlers */
  run: () => Promise<void>;
  /** where to resume partitions the broker has no committed position for (read before each restart) */
  seeks: () => Promise<Seek[]>;
  isStopping: () => boolean;
  /** aborted when the subscription stops: cuts a back-off short */
  stopped: AbortSignal;
  minDelayMs?: number;
  maxDelayMs?: number;
}

export class ConsumerRestarter {
  /** crashes seen so far */
  private crashes = 0;
  private restarting: Promise<void> | null = null;

  constructor(private readonly opts: ConsumerRestarterOptions) {
    opts.consumer.on(opts.consumer.events.CRASH, ({ payload }) => {
      this.crashes++;
      if (payload.restart) {
        opts.logger.error(
          { groupId: opts.groupId },
          'kafkajs restarts this consumer itself; restartOnFailure must answer false',
        );
        return;
      }
      if (opts.isStopping() || this.restarting) return;
      opts.logger.warn({ err: payload.error, groupId: opts.groupId }, 'consumer crashed; starting it again');
      this.restarting = this.restartUntilRunning().finally(() => {
        this.restarting = null;
      });
    });
  }

  /**
   * Runs `start` (the subscription's first run) and says whether the consumer is running after it. When it crashed
   * while starting, this restarter (already under way) starts it again and seeks, so the caller must not seek.
   */
  async firstRun(start: () => Promise<void>): Promise<boolean> {
    const before = this.crashes;
    await start();
    return this.crashes === before;
  }

  /** Settles once a restart under way has ended (the subscription waits for it before it disconnects). */
  async settled(): Promise<void> {
    await this.restarting;
  }

  private async restartUntilRunning(): Promise<void> {
    const { minDelayMs = 100, maxDelayMs = 5_000 } = this.opts;
    for (let attempt = 0; ; attempt++) {
      await sleep(Math.min(maxDelayMs, minDelayMs * 2 ** attempt), undefined, { signal: this.opts.stopped }).catch(
        () => {},
      );
      if (this.opts.isStopping()) return;
      const before = this.crashes;
      try {
        const seeks = await this.opts.seeks();
        await this.opts.run();
        if (this.crashes !== before) continue; // crashed while starting: the next attempt, after a longer wait
        for (const seek of seeks) this.opts.consumer.seek(seek);
        this.opts.logger.warn({ groupId: this.opts.groupId, attempt }, 'consumer running again after a crash');
        return;
      } catch (err) {
        this.opts.logger.warn({ err, groupId: this.opts.groupId, attempt }, 'consumer restart failed; trying again');
        await this.opts.consumer.disconnect().catch(() => {}); // the next attempt starts from a clean connection
      }
    }
  }
}
