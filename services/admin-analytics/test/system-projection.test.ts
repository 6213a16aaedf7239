/**
 * The system part's read models are projections: a scripted sequence of admin events applied through
 * the service's real projector (applyOnce + projectAdmin) into a real PostgreSQL gives exactly the expected
 * configuration, maintenance state, audit trail (newest first) and cleanup history; a late, older maintenance
 * change does not win; emptying the tables and replaying the same events rebuilds identical rows.
 */
import { describe, expect, it } from 'vitest';
import {
  ADMIN_AGGREGATE,
  parsePayload,
  type AnyEventEnvelope,
  type DomainEventPayload,
  type DomainEventType,
} from '@ephemera/proto';
import { makeEvent, systemActor } from '@ephemera/platform';
import { maintenanceSnapshot, readConfig } from '../src/system/index.ts';
import { useAdminTestDatabase } from './admin-test-database.ts';

const at = (minute: number) => new Date(Date.parse('2025-03-10T09:00:00Z') + minute * 60_000).toISOString();
let seq = 0;
function ev<T extends DomainEventType>(type: T, payload: DomainEventPayload<T>): AnyEventEnvelope {
  return makeEvent(type, ADMIN_AGGREGATE, ++seq, parsePayload(type, payload), systemActor) as AnyEventEnvelope;
}
const audit = (
  action: DomainEventPayload<'admin.action-recorded'>['action'],
  minute: number,
  extra: Partial<DomainEventPayload<'admin.action-recorded'>> = {},
) =>
  ev('admin.action-recorded', {
    action,
    target: null,
    reason: null,
    admin: 'root@example.test',
    details: {},
    at: at(minute),
    ...extra,
  });

const log: AnyEventEnvelope[] = [
  ev('admin.config-changed', { autoDeleteEnabled: true, autoDeleteDaysAfterGracePeriod: 30, at: at(1) }),
  audit('config.changed', 1),
  ev('admin.maintenance-changed', { enabled: true, message: 'Back soon', at: at(2) }),
  audit('maintenance.changed', 2, { reason: 'Back soon' }),
  audit('user.deleted', 3, { target: 'idle@example.test', reason: 'auto-delete: inactive' }),
  audit('cleanup.run', 3, { admin: 'system', details: { trigger: 'scheduled', eligible: 2, deleted: 1, failed: 1 } }),
  audit('cleanup.run', 5, { details: { trigger: 'manual', eligible: 3, deleted: 3, failed: 0 } }),
  ev('admin.config-changed', { autoDeleteEnabled: false, autoDeleteDaysAfterGracePeriod: 45, at: at(6) }),
];
const newer = ev('admin.maintenance-changed', { enabled: false, message: null, at: at(7) });
const older = {
  ...ev('admin.maintenance-changed', { enabled: true, message: 'stale', at: at(0) }),
  sequence: 1,
} as AnyEventEnvelope;

describe('system projection', () => {
  const db = useAdminTestDatabase();
  const { apply } = db;
  const rows = async () => ({
    config: (await db.pool.query('SELECT * FROM admin.config')).rows,
    audit: (await db.pool.query('SELECT * FROM admin.audit ORDER BY at DESC, seq DESC')).rows,
    runs: (await db.pool.query('SELECT * FROM admin.cleanup_runs ORDER BY at')).rows,
  });

  it('gives exactly the scripted configuration, maintenance, audit trail and cleanup history', async () => {
    const { pool } = db;
    expect(await readConfig(pool)).toEqual({
      maintenanceMode: false,
      maintenanceMessage: null,
      autoDeleteEnabled: false,
      autoDeleteDaysAfterGracePeriod: 90,
    });
    await apply(log);
    expect(await readConfig(pool)).toEqual({
      maintenanceMode: true,
      maintenanceMessage: 'Back soon',
      autoDeleteEnabled: false,
      autoDeleteDaysAfterGracePeriod: 45,
    });
    const { audit: trail, runs } = await rows();
    expect(trail.map((r) => r.action)).toEqual([
      'cleanup.run',
      'cleanup.run',
      'user.deleted',
      'maintenance.changed',
      'config.changed',
    ]);
    expect(trail[2]).toMatchObject({
      target: 'idle@example.test',
      reason: 'auto-delete: inactive',
      admin: 'root@example.test',
    });
    expect(runs.map((r) => [r.trigger, r.eligible, r.deleted, r.failed])).toEqual([
      ['scheduled', 2, 1, 1],
      ['manual', 3, 3, 0],
    ]);
    await apply([newer, older]); // the older change arrives last: the newer one stands
    expect(await maintenanceSnapshot(pool)).toEqual({ enabled: false, message: null, sequence: newer.sequence });
    await apply(log); // delivered again: nothing changes
    expect((await rows()).audit).toHaveLength(5);
  });

  it('a replay into empty tables rebuilds identical rows', async () => {
    const { pool } = db;
    const first = await rows();
    await pool.query('TRUNCATE admin.config, admin.audit, admin.cleanup_runs, admin.processed_events');
    await apply([...log, newer, older]);
    expect(await rows()).toEqual(first);
  });
});
