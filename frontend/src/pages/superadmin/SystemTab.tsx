/**
 * System tab: performance (ms), security (failed sign-ins, blocked addresses), storage usage, backup management,
 * maintenance mode (enabling asks for the message; default System is under maintenance. Please try again later.)
 * and the audit trail of superadmin actions.
 */
import { useEffect, useState } from 'react';
import type { AuditEntry } from '@ephemera/proto';
import { ADMIN_TEXT, adminApi, listOf } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Badge, Cards, Section, StatCard, Unavailable } from './ui.tsx';
import { bytes, count, dateTimeOf, ms } from './format.ts';
import { BackupsPanel } from './BackupsPanel.tsx';
import { recheckMaintenance } from '../../components/overlays/MaintenanceBanner.tsx';

/** The audit trail; read again whenever the page's resources are (Refresh, or after an action). */
function AuditTrail({ version }: { version: unknown }) {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  useEffect(() => {
    let live = true;
    void adminApi.audit().then((r) => {
      if (live && r.ok) setEntries(listOf<AuditEntry>(r.data, 'entries'));
    });
    return () => {
      live = false;
    };
  }, [version]);
  return (
    <Section title="Audit Trail" testId="sa-audit">
      {entries === null ? (
        <Unavailable what="The audit trail" />
      ) : entries.length === 0 ? (
        <p className="sa-muted">No superadmin actions yet.</p>
      ) : (
        <ul className="sa-list">
          {entries.slice(0, 50).map((e) => (
            <li key={e.id}>
              <Badge tone="info">{e.action}</Badge>
              <span className="sa-wrap">
                {e.target ?? ''}
                {e.reason ? ` — ${e.reason}` : ''}
              </span>
              <span className="sa-muted">{dateTimeOf(e.at)}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function SystemTab({ data, reload, ask, toast }: TabProps) {
  const system = data.report?.system;
  const storage = data.storage;
  const maintenance = data.config?.maintenanceMode ?? false;
  const [toggling, setToggling] = useState(false);

  const toggleMaintenance = async () => {
    let message: string | null = null;
    if (!maintenance) {
      message =
        (await ask.prompt('Maintenance message shown to every visitor:', ADMIN_TEXT.maintenanceDefault))?.trim() ||
        null;
      if (!message) return; // enabling needs a non-empty message (docs/product/admin.md ADM10)
    }
    setToggling(true);
    const r = await adminApi.maintenance(!maintenance, message);
    setToggling(false);
    if (!r.ok) {
      toast.error('Failed to toggle maintenance mode');
      return;
    }
    toast.success(`Maintenance mode ${maintenance ? 'disabled' : 'enabled'}`);
    void reload(['config']);
    recheckMaintenance(); // every visitor's banner polls; this one shows it now
  };

  return (
    <>
      <Section title="Performance">
        {system ? (
          <Cards>
            <StatCard
              label="Average Response Time"
              value={ms(system.performance.averageResponseTime)}
              testId="sa-response-time"
            />
            <StatCard
              label="Database Query Time"
              value={ms(system.performance.databaseQueryTime)}
              testId="sa-query-time"
            />
          </Cards>
        ) : (
          <Unavailable what="Performance figures" />
        )}
      </Section>
      <Section title="Security">
        {system ? (
          <Cards>
            <StatCard
              label="Failed Logins"
              value={count(system.security.failedLoginAttempts)}
              testId="sa-failed-logins"
            />
            <StatCard
              label="Blocked IPs"
              value={count(system.security.blockedIPs.length)}
              testId="sa-blocked-ips"
              hint={system.security.blockedIPs.length ? system.security.blockedIPs.slice(0, 5).join(', ') : undefined}
            />
          </Cards>
        ) : (
          <Unavailable what="Security figures" />
        )}
      </Section>
      <Section title="Storage Usage">
        {storage ? (
          <Cards>
            <StatCard label="Database Size" value={`${count(storage.databaseSize)} keys`} testId="sa-database-size" />
            <StatCard label="Memory Usage" value={bytes(storage.memoryUsage)} testId="sa-memory-usage" />
            <StatCard label="Backups" value={count(storage.backupCount)} testId="sa-backup-count" />
          </Cards>
        ) : (
          <Unavailable what="Storage usage" />
        )}
      </Section>
      <BackupsPanel data={data} reload={reload} toast={toast} />
      <Section title="Maintenance Mode" testId="sa-maintenance">
        <div className="sa-toggle-row">
          <span>
            Maintenance mode is <strong data-testid="sa-maintenance-state">{maintenance ? 'on' : 'off'}</strong>
            {maintenance && data.config?.maintenanceMessage ? `: ${data.config.maintenanceMessage}` : ''}
          </span>
          <button
            type="button"
            role="switch"
            aria-checked={maintenance}
            className={`sa-switch${maintenance ? ' on' : ''}`}
            onClick={() => void toggleMaintenance()}
            disabled={toggling || !data.config}
            data-testid="sa-maintenance-toggle"
          >
            <span className="sa-sr-only">Maintenance mode</span>
          </button>
        </div>
      </Section>
      <AuditTrail version={data} />
    </>
  );
}
