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
import { maintenanceText, recheckMaintenance } from '../../components/overlays/MaintenanceBanner.tsx';
import { useT } from '../../i18n/i18n.ts';
import { Trans } from '../../i18n/Trans.tsx';

/** The audit trail; read again whenever the page's resources are (Refresh, or after an action). */
function AuditTrail({ version }: { version: unknown }) {
  const t = useT();
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
    <Section title={t('admin.system.auditTrail')} testId="sa-audit">
      {entries === null ? (
        <Unavailable what={t('admin.system.auditUnavailable')} />
      ) : entries.length === 0 ? (
        <p className="sa-muted">{t('admin.system.noSuperadminActionsYet')}</p>
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
  const t = useT();
  const system = data.report?.system;
  const storage = data.storage;
  const maintenance = data.config?.maintenanceMode ?? false;
  const [toggling, setToggling] = useState(false);

  const toggleMaintenance = async () => {
    let message: string | null = null;
    if (!maintenance) {
      // the default is offered in the superadmin's language; sent unchanged it goes as proto's English default, which
      // every visitor's banner then shows in their own language (MaintenanceBanner.tsx)
      const offered = t('common.maintenance.default');
      const typed = (await ask.prompt(t('admin.system.maintenancePrompt'), offered))?.trim() || null;
      message = typed === offered ? ADMIN_TEXT.maintenanceDefault : typed;
      if (!message) return; // enabling needs a non-empty message (docs/product/admin.md ADM10)
    }
    setToggling(true);
    const r = await adminApi.maintenance(!maintenance, message);
    setToggling(false);
    if (!r.ok) {
      toast.error(t('admin.system.maintenanceFailed'));
      return;
    }
    toast.success(maintenance ? t('admin.system.maintenanceDisabled') : t('admin.system.maintenanceEnabled'));
    void reload(['config']);
    recheckMaintenance(); // every visitor's banner polls; this one shows it now
  };

  return (
    <>
      <Section title={t('admin.system.performance')}>
        {system ? (
          <Cards>
            <StatCard
              label={t('admin.system.averageResponseTime')}
              value={ms(system.performance.averageResponseTime)}
              testId="sa-response-time"
            />
            <StatCard
              label={t('admin.system.databaseQueryTime')}
              value={ms(system.performance.databaseQueryTime)}
              testId="sa-query-time"
            />
          </Cards>
        ) : (
          <Unavailable what={t('admin.system.performanceUnavailable')} />
        )}
      </Section>
      <Section title={t('admin.system.security')}>
        {system ? (
          <Cards>
            <StatCard
              label={t('admin.system.failedLogins')}
              value={count(system.security.failedLoginAttempts)}
              testId="sa-failed-logins"
            />
            <StatCard
              label={t('admin.system.blockedIPs')}
              value={count(system.security.blockedIPs.length)}
              testId="sa-blocked-ips"
              hint={system.security.blockedIPs.length ? system.security.blockedIPs.slice(0, 5).join(', ') : undefined}
            />
          </Cards>
        ) : (
          <Unavailable what={t('admin.system.securityUnavailable')} />
        )}
      </Section>
      <Section title={t('admin.system.storageUsage')}>
        {storage ? (
          <Cards>
            <StatCard
              label={t('admin.system.databaseSize')}
              value={t('admin.system.keys', { count: count(storage.databaseSize) })}
              testId="sa-database-size"
            />
            <StatCard
              label={t('admin.system.memoryUsage')}
              value={bytes(storage.memoryUsage)}
              testId="sa-memory-usage"
            />
            <StatCard label={t('admin.system.backups')} value={count(storage.backupCount)} testId="sa-backup-count" />
          </Cards>
        ) : (
          <Unavailable what={t('admin.system.storageUnavailable')} />
        )}
      </Section>
      <BackupsPanel data={data} reload={reload} toast={toast} />
      <Section title={t('admin.system.maintenanceMode')} testId="sa-maintenance">
        <div className="sa-toggle-row">
          <span>
            <Trans
              id="admin.system.maintenanceState"
              values={{ state: maintenance ? 'on' : 'off' }}
              components={{ 0: <strong data-testid="sa-maintenance-state" /> }}
            />
            {maintenance && data.config?.maintenanceMessage
              ? `: ${maintenanceText(data.config.maintenanceMessage, t)}`
              : ''}
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
            <span className="sa-sr-only">{t('admin.system.maintenanceMode')}</span>
          </button>
        </div>
      </Section>
      <AuditTrail version={data} />
    </>
  );
}
