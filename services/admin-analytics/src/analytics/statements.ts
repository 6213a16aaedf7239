/**
 * The analytics projection's statements and how they reach PostgreSQL: an event's statements go as one round trip
 * (data-modifying WITH parts), each text a named prepared statement. Apart from projector.ts, which decides which
 * statements an event calls for, so that file reads as the list of events and what each counts.
 */
import { createHash } from 'node:crypto';
import type { PoolClient } from '@ephemera/platform';

/** `with`: named parts (CTEs) the statement reads, placed before it; they share its parameters and the names are unique */
export interface Statement {
  sql: string;
  params: unknown[];
  with?: string[];
}

/** One round trip: several statements become one, as data-modifying WITH parts (each touches its own table). */
export async function runStatements(client: PoolClient, statements: Statement[]): Promise<void> {
  if (statements.length === 0) return;
  if (statements.length === 1) {
    const [only] = statements;
    await client.query(prepared(only.with ? `WITH ${only.with.join(', ')} ${only.sql}` : only.sql, only.params));
    return;
  }
  const params: unknown[] = [];
  const parts = statements.flatMap((s, i) => {
    const offset = params.length;
    params.push(...s.params);
    const renumber = (sql: string) => sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`);
    return [...(s.with ?? []).map(renumber), `s${i} AS (${renumber(s.sql)})`];
  });
  await client.query(prepared(`WITH ${parts.join(', ')} SELECT 1`, params));
}

/**
 * A named (prepared) statement: each connection parses and plans it once instead of for every event. The texts are
 * a small fixed set (one per kind of event), so the names are few.
 */
const names = new Map<string, string>();
function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  let name = names.get(text);
  if (!name) {
    name = `admin-analytics-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return { name, text, values };
}
