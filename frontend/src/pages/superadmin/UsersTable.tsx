/**
 * The Users tab's page of accounts (docs/product/admin.md ADM4): e-mail, username, tier with the Admin Trial badge,
 * payment status with the Suspended badge, creation date, and the row's actions (admin upgrade, suspend or
 * unsuspend, delete), which the tab carries out.
 */
import type { AdminUser } from '@ephemera/proto';
import { Badge } from './ui.tsx';
import { dateOf } from './format.ts';
import { useT } from '../../i18n/i18n.ts';

interface Props {
  users: AdminUser[];
  page: number;
  /** a page is being fetched (the table stays, marked busy) */
  loading: boolean;
  onUpgrade(user: AdminUser): void;
  onSuspend(user: AdminUser): void;
  onDelete(user: AdminUser): void;
}

export function UsersTable({ users, page, loading, onUpgrade, onSuspend, onDelete }: Props) {
  const t = useT();
  return (
    <table className="sa-table" data-testid="sa-users-table" aria-busy={loading}>
      <caption className="sa-sr-only">{t('admin.users.caption', { page })}</caption>
      <thead>
        <tr>
          <th scope="col">{t('admin.users.col.email')}</th>
          <th scope="col">{t('admin.users.col.username')}</th>
          <th scope="col">{t('admin.users.tier')}</th>
          <th scope="col">{t('admin.users.col.payment')}</th>
          <th scope="col">{t('admin.users.col.created')}</th>
          <th scope="col">{t('admin.col.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {users.map((u) => (
          <tr key={u.email} data-testid="sa-user-row" data-email={u.email}>
            <td className="sa-wrap">{u.email}</td>
            <td>{u.username || <span className="sa-muted">{t('admin.users.noUsername')}</span>}</td>
            <td>
              <Badge tone={u.subscriptionTier === 'free' ? 'neutral' : u.subscriptionTier} testId="sa-user-tier">
                {u.subscriptionTier}
              </Badge>
              {u.upgradedByAdmin && (
                <>
                  {' '}
                  <Badge tone="info" testId="sa-admin-trial">
                    {t('admin.users.adminTrial')}
                  </Badge>
                </>
              )}
            </td>
            <td>
              {u.paymentStatus}
              {u.suspended && (
                <>
                  {' '}
                  <Badge tone="bad" testId="sa-suspended" title={u.suspendedReason ?? undefined}>
                    {t('admin.users.suspended')}
                  </Badge>
                </>
              )}
            </td>
            <td>{dateOf(u.createdAt)}</td>
            <td className="sa-row-actions">
              <button
                type="button"
                className="button button-ghost button-sm"
                onClick={() => onUpgrade(u)}
                aria-label={t('admin.users.upgradeLabel', { email: u.email })}
                data-testid="sa-user-upgrade"
              >
                {t('admin.users.upgrade')}
              </button>
              <button
                type="button"
                className="button button-ghost button-sm"
                onClick={() => onSuspend(u)}
                aria-label={t(u.suspended ? 'admin.users.unsuspendLabel' : 'admin.users.suspendLabel', {
                  email: u.email,
                })}
                data-testid="sa-user-suspend"
              >
                {u.suspended ? t('admin.users.unsuspend') : t('admin.users.suspend')}
              </button>
              <button
                type="button"
                className="button button-danger button-sm"
                onClick={() => onDelete(u)}
                aria-label={t('admin.deleteLabel', { name: u.email })}
                data-testid="sa-user-delete"
              >
                {t('admin.delete')}
              </button>
            </td>
          </tr>
        ))}
        {users.length === 0 && (
          <tr>
            <td colSpan={6} className="sa-muted">
              {t('admin.users.none')}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
