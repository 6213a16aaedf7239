/**
 * Counts the queries a pool is asked, per SQL pattern: for tests that say how many reads an operation makes
 * (a cache, a shared read). Hand `watch` to startRoomWorld's `onPool`; `counts` then grows as matching queries go out.
 */
import type { Pool } from '@ephemera/platform';

export function queryCounts<K extends string>(
  patterns: Record<K, RegExp>,
): { counts: Record<K, number>; watch: (pool: Pool) => void } {
  const names = Object.keys(patterns) as K[];
  const counts = Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>;
  const watch = (pool: Pool) => {
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const sql = typeof args[0] === 'string' ? args[0] : '';
      for (const name of names) if (patterns[name].test(sql)) counts[name] += 1;
      return query(...args);
    };
  };
  return { counts, watch };
}
