/**
 * billing.contact_messages, the contact form's read model: its projection of contact.* events (through applyOnce: a
 * replay rebuilds the same table) and its queries for the admin's Feedback tab (contact.ts).
 */
import {
  CONTACT_STATUSES,
  type AnyEventEnvelope,
  type ContactCounts,
  type ContactMessageView,
  type ContactStatus,
} from '@ephemera/proto';
import type { Pool, PoolClient } from '@ephemera/platform';

const COLUMNS = `id, name, email, category, message, status, received_at AS "receivedAt", last_seq AS "lastSeq"`;
interface Row {
  id: string;
  name: string;
  email: string;
  category: ContactMessageView['category'];
  message: string;
  status: ContactStatus;
  receivedAt: Date;
  lastSeq: number;
}
export const view = (r: Row): ContactMessageView => ({
  id: r.id,
  name: r.name,
  email: r.email,
  category: r.category,
  message: r.message,
  status: r.status,
  createdAt: r.receivedAt.toISOString(),
});

/** One message's row, or null. */
export async function contactRow(pool: Pool, id: string): Promise<Row | null> {
  const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM billing.contact_messages WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** newest first (the Feedback tab shows a page at a time); status: only those */
export async function contactPage(
  pool: Pool,
  opts: { limit?: number; offset?: number; status?: ContactStatus },
): Promise<ContactMessageView[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
  const { rows } = await pool.query<Row>(
    `SELECT ${COLUMNS} FROM billing.contact_messages WHERE ($1::text IS NULL OR status = $1)
     ORDER BY received_at DESC, id LIMIT $2 OFFSET $3`,
    [opts.status ?? null, limit, Math.max(opts.offset ?? 0, 0)],
  );
  return rows.map(view);
}

/** the Feedback tab's counts: total and per status */
export async function contactCounts(pool: Pool): Promise<ContactCounts> {
  const { rows } = await pool.query<{ status: ContactStatus; n: string }>(
    'SELECT status, count(*) AS n FROM billing.contact_messages GROUP BY status',
  );
  const counts = Object.fromEntries(CONTACT_STATUSES.map((s) => [s, 0])) as ContactCounts;
  counts.total = 0;
  for (const r of rows) {
    counts[r.status] = Number(r.n);
    counts.total += Number(r.n);
  }
  return counts;
}

/** contact.* events -> billing.contact_messages (through applyOnce: a replay rebuilds the same table). */
export async function projectContact(client: PoolClient, event: AnyEventEnvelope): Promise<void> {
  switch (event.type) {
    case 'contact.message-received': {
      const p = event.payload;
      await client.query(
        `INSERT INTO billing.contact_messages (id, name, email, category, message, received_at, last_seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
        [p.messageId, p.name, p.email, p.category, p.message, p.receivedAt, event.sequence],
      );
      return;
    }
    case 'contact.message-status-changed':
      await client.query(
        'UPDATE billing.contact_messages SET status = $2, status_changed_at = $3, last_seq = $4 WHERE id = $1',
        [event.payload.messageId, event.payload.status, event.payload.changedAt, event.sequence],
      );
      return;
    case 'contact.message-deleted':
      await client.query('DELETE FROM billing.contact_messages WHERE id = $1', [event.payload.messageId]);
      return;
    default:
      return;
  }
}
