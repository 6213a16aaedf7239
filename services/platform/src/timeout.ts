/** `promise`, or the error `late()` builds if it has not settled within `ms` (the timer keeps no process alive). */
export function withTimeout<T>(promise: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(late()), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
