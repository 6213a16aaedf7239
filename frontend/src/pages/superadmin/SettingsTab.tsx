/**
 * Settings tab: auto-delete of inactive users (toggle; days after the 7-day grace period, 1..1000, other input
 * ignored, default 90), the current status, the manual cleanup (its confirmation states the user count and that it
 * cannot be undone; disabled while running; the page reloads 2 s after) and the cleanup history.
 */
import { useEffect, useRef, useState } from 'react';
import { ADMIN_LIMITS, adminApi, type AdminResult } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Cards, Section, StatCard, Unavailable } from './ui.tsx';
import { autoDeleteDaysOf, count, dateTimeOf } from './format.ts';
import { useT } from '../../i18n/i18n.ts';

export const RELOAD_AFTER_CLEANUP_MS = 2000;
const SAVE_DELAY_MS = 600;

export function SettingsTab({ data, reload, ask, toast }: TabProps) {
  const t = useT();
  const config = data.config;
  const cleanup = data.cleanup;
  const savedDays = config?.autoDeleteDaysAfterGracePeriod ?? ADMIN_LIMITS.autoDelete.defaultDays;
  const [days, setDays] = useState(String(savedDays));
  const [running, setRunning] = useState(false);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    setDays(String(savedDays));
  }, [savedDays]);
  useEffect(
    () => () => {
      if (saveTimer.current) clearTimeout(saveTimer.current);
    },
    [],
  );

  const configToast = (r: AdminResult<unknown>) => {
    if (r.ok) toast.success(t('admin.settings.updated'));
    else toast.error(r.status === 0 ? t('admin.settings.updateError') : t('admin.settings.updateFailed'));
    void reload(['config', 'cleanup']);
  };
  const toggle = async () =>
    configToast(await adminApi.updateConfig({ autoDeleteEnabled: !config?.autoDeleteEnabled }));
  const onDays = (value: string) => {
    // a whole number 1..1000 (docs/product/admin.md ADM12); other input is ignored (an empty field may be typed into)
    const n = autoDeleteDaysOf(value);
    if (value !== '' && n === null) return;
    setDays(value);
    if (saveTimer.current) clearTimeout(saveTimer.current);
    if (n === null || n === savedDays) return;
    saveTimer.current = setTimeout(() => {
      void adminApi.updateConfig({ autoDeleteDaysAfterGracePeriod: n }).then(configToast);
    }, SAVE_DELAY_MS);
  };
  const runCleanup = async () => {
    const n = cleanup?.currentEligibleUsers ?? 0;
    const ok = await ask.confirm(t('admin.settings.cleanupConfirm', { count: n }));
    if (!ok) return;
    setRunning(true);
    const r = await adminApi.cleanupRun();
    if (!r.ok) {
      setRunning(false);
      toast.error(t('admin.dashboard.cleanupFailed'));
      return;
    }
    toast.success(t('admin.settings.cleanupStarted'));
    setTimeout(() => window.location.reload(), RELOAD_AFTER_CLEANUP_MS);
  };

  if (!config) return <Unavailable what={t('admin.settings.configUnavailable')} />;
  return (
    <>
      <Section title={t('admin.settings.autoDeleteInactiveUsers')} testId="sa-auto-delete">
        <div className="sa-toggle-row">
          <span id="sa-auto-delete-label">{t('admin.settings.deleteInactiveUsersAutomatically')}</span>
          <button
            type="button"
            role="switch"
            aria-checked={config.autoDeleteEnabled}
            aria-labelledby="sa-auto-delete-label"
            className={`sa-switch${config.autoDeleteEnabled ? ' on' : ''}`}
            onClick={() => void toggle()}
            data-testid="sa-auto-delete-toggle"
          />
        </div>
        <label className="sa-field">
          <span>{t('admin.settings.daysAfterGrace', { days: ADMIN_LIMITS.autoDelete.graceDays })}</span>
          <input
            type="number"
            inputMode="numeric"
            className="sa-input sa-input-short"
            min={ADMIN_LIMITS.autoDelete.minDays}
            max={ADMIN_LIMITS.autoDelete.maxDays}
            step={1}
            value={days}
            onChange={(e) => onDays(e.target.value)}
            data-testid="sa-auto-delete-days"
          />
        </label>
      </Section>
      <Section title={t('admin.settings.currentStatus')} testId="sa-cleanup-status">
        <Cards>
          <StatCard
            label={t('admin.settings.enabled')}
            value={config.autoDeleteEnabled ? t('admin.settings.yes') : t('admin.settings.no')}
            testId="sa-status-enabled"
          />
          <StatCard
            label={t('admin.settings.days')}
            value={count(config.autoDeleteDaysAfterGracePeriod)}
            testId="sa-status-days"
          />
          <StatCard
            label={t('admin.settings.eligibleUsers')}
            value={cleanup ? count(cleanup.currentEligibleUsers) : '—'}
            testId="sa-status-eligible"
          />
          <StatCard
            label={t('admin.settings.totalDeleted')}
            value={cleanup ? count(cleanup.deletedUsersCount) : '—'}
            testId="sa-status-deleted"
          />
        </Cards>
        <div className="sa-actions">
          <button
            type="button"
            className="button button-danger"
            onClick={() => void runCleanup()}
            disabled={running || !cleanup || cleanup.isRunning}
            data-testid="sa-cleanup-run"
          >
            {running || cleanup?.isRunning ? t('admin.settings.running') : t('admin.settings.runNow')}
          </button>
        </div>
      </Section>
      <Section title={t('admin.settings.cleanupHistory')} testId="sa-cleanup-history">
        {cleanup ? (
          <>
            <Cards>
              <StatCard
                label={t('admin.settings.lastRun')}
                value={cleanup.lastRunAt ? dateTimeOf(cleanup.lastRunAt) : t('admin.never')}
                testId="sa-last-run"
              />
              <StatCard
                label={t('admin.settings.lastDeletionCount')}
                value={count(cleanup.lastDeletionCount)}
                testId="sa-last-count"
              />
              <StatCard label={t('admin.settings.totalDeleted')} value={count(cleanup.deletedUsersCount)} />
            </Cards>
            <h3 className="sa-subhead">{t('admin.settings.eligibleList')}</h3>
            {cleanup.eligibleUsers.length === 0 ? (
              <p className="sa-muted">{t('admin.settings.noUserIsEligibleForDeletion')}</p>
            ) : (
              <ul className="sa-list" data-testid="sa-eligible-users">
                {cleanup.eligibleUsers.map((u) => (
                  <li key={u.email}>
                    <span className="sa-wrap">{u.email}</span>
                    <span>{u.subscriptionTier}</span>
                    <span className="sa-muted">{t('admin.settings.overdue', { count: u.daysSinceEligible })}</span>
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <Unavailable what={t('admin.settings.statusUnavailable')} />
        )}
      </Section>
    </>
  );
}
