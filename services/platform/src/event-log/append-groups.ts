/**
 * Group commit for the Kafka log (kafka.ts append): one request in flight; the appends made meanwhile wait for it and
 * then go together in the next request, oldest first and each whole, every caller answered with the outcome of the
 * request that carried its records. An append made while nothing is in flight goes at once.
 */
import type { Topic } from '@ephemera/proto';
import type { LogRecord } from './port.ts';

/** a record as sent: its event serialized once, when appended */
export interface OutgoingMessage { topic: Topic; key: string; value: string; headers: LogRecord['headers'] }

interface WaitingAppend { messages: OutgoingMessage[]; bytes: number; resolve: () => void; reject: (err: unknown) => void }

/** At most this much in one request: the broker refuses a batch over its message.max.bytes (1 MB by default). */
const MAX_GROUP_RECORDS = 1_000;
const MAX_GROUP_BYTES = 512 * 1024;

export class AppendGroups {
  private readonly waiting: WaitingAppend[] = [];
  private sending = false;

  constructor(private readonly send: (messages: OutgoingMessage[]) => Promise<void>) {}

  append(messages: OutgoingMessage[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ messages, bytes: messages.reduce((n, m) => n + m.value.length, 0), resolve, reject });
      if (!this.sending) void this.sendWaiting();
    });
  }

  private async sendWaiting(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0) {
      const group = this.nextGroup();
      try {
        await this.send(group.flatMap((a) => a.messages));
        for (const a of group) a.resolve();
      } catch (err) {
        for (const a of group) a.reject(err);
      }
    }
    this.sending = false;
  }

  /** The oldest waiting append, then as many of the next as fit in the limits. */
  private nextGroup(): WaitingAppend[] {
    let records = 0;
    let bytes = 0;
    let n = 0;
    for (const a of this.waiting) {
      if (n > 0 && (records + a.messages.length > MAX_GROUP_RECORDS || bytes + a.bytes > MAX_GROUP_BYTES)) break;
      records += a.messages.length;
      bytes += a.bytes;
      n += 1;
    }
    return this.waiting.splice(0, n);
  }
}
