import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { createPool, inTransaction, statementName } from '../src/pg.ts';

const pools: { end(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

describe('parameterized queries run as prepared statements', () => {
  it('a statement with parameters is prepared once per connection and reused; one without is not prepared', async () => {
    const pool = createPool(await createTestDatabase(), 1); // one connection: every query below shares it
    pools.push(pool);
    const text = 'SELECT $1::int + $2::int AS sum';
    expect((await pool.query(text, [1, 2])).rows[0].sum).toBe(3);
    expect((await pool.query(text, [40, 2])).rows[0].sum).toBe(42); // the same statement, other values
    expect(await inTransaction(pool, async (c) => (await c.query(text, [5, 5])).rows[0].sum)).toBe(10);
    await pool.query('SELECT 1 AS plain');
    // a large statement (a multi-row insert's shape: 65 parameters) is not prepared
    const many = Array.from({ length: 65 }, (_, i) => i);
    const wide = `SELECT ${many.map((i) => `$${i + 1}::int`).join(' + ')} AS total`;
    expect((await pool.query(wide, many)).rows[0].total).toBe(many.reduce((a, b) => a + b, 0));
    const { rows } = await pool.query('SELECT name, statement FROM pg_prepared_statements');
    expect(rows).toEqual([{ name: statementName(text), statement: text }]);
  });

  it('a failing prepared statement answers its error and leaves the connection usable', async () => {
    const pool = createPool(await createTestDatabase(), 1);
    pools.push(pool);
    await expect(pool.query('SELECT $1::int AS n', ['not a number'])).rejects.toThrow(/invalid input syntax/);
    expect((await pool.query('SELECT $1::int AS n', [7])).rows[0].n).toBe(7);
  });

  it('names are stable per text, distinct across texts, and stop being given past the cap', () => {
    const a = statementName('SELECT $1 AS a');
    expect(a).toBe(statementName('SELECT $1 AS a'));
    expect(a).not.toBe(statementName('SELECT $1 AS b'));
    for (let i = 0; i < 1_000; i++) statementName(`SELECT $1 AS c${i}`);
    expect(statementName('SELECT $1 AS never-seen')).toBeNull();
    expect(statementName('SELECT $1 AS a')).toBe(a); // known texts keep their names
  });
});
