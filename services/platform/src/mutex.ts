/** Per-key async mutex: commands for one room run one at a time in this process, so sequence numbers stay gap-free. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once everything queued on `key` so far has run (at once when nothing is). */
  settled(key: string): Promise<void> {
    return (this.tails.get(key) ?? Promise.resolve()).then(() => {});
  }

  /** Resolves once everything queued on any key so far has run. */
  async settledAll(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
