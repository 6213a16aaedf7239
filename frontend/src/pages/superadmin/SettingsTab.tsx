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

export const RELOAD_AFTER_CLEANUP_MS = 2000;
const SAVE_DELAY_MS = 600;

export function SettingsTab({ data, reload, ask, toast }: TabProps) {
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
    if (r.ok) toast.success('Configuration updated successfully');
    else toast.error(r.status === 0 ? 'Update failed' : 'Failed to update configuration');
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
    const ok = await ask.confirm(
      `This will permanently delete ${n} inactive user${n === 1 ? '' : 's'}. This cannot be undone. Continue?`,
    );
    if (!ok) return;
    setRunning(true);
    const r = await adminApi.cleanupRun();
    if (!r.ok) {
      setRunning(false);
      toast.error('Cleanup failed');
      return;
    }
    toast.success('Manual cleanup triggered successfully');
    setTimeout(() => window.location.reload(), RELOAD_AFTER_CLEANUP_MS);
  };

  if (!config) return <Unavailable what="The configuration" />;
  return (
    <>
      <Section title="Auto-Delete Inactive Users" testId="sa-auto-delete">
        <div className="sa-toggle-row">
          <span id="sa-auto-delete-label">Delete inactive users automatically</span>
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
          <span>Days after the {ADMIN_LIMITS.autoDelete.graceDays}-day grace period</span>
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
      <Section title="Current Status" testId="sa-cleanup-status">
        <Cards>
          <StatCard label="Enabled" value={config.autoDeleteEnabled ? 'Yes' : 'No'} testId="sa-status-enabled" />
          <StatCard label="Days" value={count(config.autoDeleteDaysAfterGracePeriod)} testId="sa-status-days" />
          <StatCard
            label="Eligible Users"
            value={cleanup ? count(cleanup.currentEligibleUsers) : '—'}
            testId="sa-status-eligible"
          />
          <StatCard
            label="Total Deleted"
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
            {running || cleanup?.isRunning ? 'Running cleanup…' : 'Run Cleanup Now'}
          </button>
        </div>
      </Section>
      <Section title="Cleanup History" testId="sa-cleanup-history">
        {cleanup ? (
          <>
            <Cards>
              <StatCard
                label="Last Run"
                value={cleanup.lastRunAt ? dateTimeOf(cleanup.lastRunAt) : 'Never'}
                testId="sa-last-run"
              />
              <StatCard label="Last Deletion Count" value={count(cleanup.lastDeletionCount)} testId="sa-last-count" />
              <StatCard label="Total Deleted" value={count(cleanup.deletedUsersCount)} />
            </Cards>
            <h3 className="sa-subhead">Eligible users</h3>
            {cleanup.eligibleUsers.length === 0 ? (
              <p className="sa-muted">No user is eligible for deletion.</p>
            ) : (
              <ul className="sa-list" data-testid="sa-eligible-users">
                {cleanup.eligibleUsers.map((u) => (
                  <li key={u.email}>
                    <span className="sa-wrap">{u.email}</span>
                    <span>{u.subscriptionTier}</span>
                    <span className="sa-muted">{u.daysSinceEligible} days overdue</span>
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <Unavailable what="The cleanup status" />
        )}
      </Section>
    </>
  );
}
