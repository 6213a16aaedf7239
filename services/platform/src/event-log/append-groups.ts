/**
 * Group commit, for both logs (kafka.ts, embedded.ts): one write in flight; the appends made meanwhile wait for it
 * and then go together in the next write, oldest first and each whole, every caller answered with the outcome of the
 * write that carried its records. An append made while nothing is in flight goes at once.
 */

/** How much one write may carry (the Kafka broker refuses a batch over its message.max.bytes); absent: everything */
export interface GroupLimits<T> {
  maxRecords: number;
  maxBytes: number;
  bytesOf(record: T): number;
}

interface WaitingAppend<T> {
  records: T[];
  bytes: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class AppendGroups<T> {
  private readonly waiting: WaitingAppend<T>[] = [];
  private writing = false;

  /** `write` makes the records of one group durable; it resolves when they are, and rejects when they may not be. */
  constructor(
    private readonly write: (records: T[]) => Promise<void>,
    private readonly limits?: GroupLimits<T>,
  ) {}

  append(records: T[]): Promise<void> {
    const bytes = this.limits ? records.reduce((n, r) => n + this.limits!.bytesOf(r), 0) : 0;
    return new Promise((resolve, reject) => {
      this.waiting.push({ records, bytes, resolve, reject });
      if (!this.writing) void this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const group = this.nextGroup();
      try {
        await this.write(group.flatMap((a) => a.records));
        for (const a of group) a.resolve();
      } catch (err) {
        for (const a of group) a.reject(err);
      }
    }
    this.writing = false;
  }

  /** The oldest waiting append, then as many of the next as fit in the limits. */
  private nextGroup(): WaitingAppend<T>[] {
    if (!this.limits) return this.waiting.splice(0);
    const { maxRecords, maxBytes } = this.limits;
    let records = 0;
    let bytes = 0;
    let n = 0;
    for (const a of this.waiting) {
      if (n > 0 && (records + a.records.length > maxRecords || bytes + a.bytes > maxBytes)) break;
      records += a.records.length;
      bytes += a.bytes;
      n += 1;
    }
    return this.waiting.splice(0, n);
  }
}
