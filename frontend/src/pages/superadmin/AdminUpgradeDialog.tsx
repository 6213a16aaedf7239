/** The admin upgrade dialog (docs/product/admin.md ADM5): Pro (10 rooms, 25 users) or Business (unlimited) for a 30-day trial, or Cancel. */
import { Modal } from '../../components/Modal.tsx';
import { ADMIN_LIMITS } from '../../lib/adminApi.ts';
import { useT } from '../../i18n/i18n.ts';
import { Trans } from '../../i18n/Trans.tsx';

export function AdminUpgradeDialog({
  email,
  onChoose,
  onClose,
}: {
  email: string;
  onChoose(tier: 'pro' | 'business'): void;
  onClose(): void;
}) {
  const t = useT();
  return (
    <Modal
      title={t('admin.upgrade.title')}
      onClose={onClose}
      testId="sa-upgrade-dialog"
      footer={
        <button type="button" className="button button-ghost" onClick={onClose} data-testid="sa-upgrade-cancel">
          {t('admin.ask.cancel')}
        </button>
      }
    >
      <p>
        <Trans
          id="admin.upgrade.text"
          values={{ email, days: ADMIN_LIMITS.trialDays }}
          components={{ 0: <strong /> }}
        />
      </p>
      <div className="sa-upgrade-options">
        <button
          type="button"
          className="sa-upgrade-option"
          onClick={() => onChoose('pro')}
          data-testid="sa-upgrade-pro"
        >
          <strong>{t('admin.upgrade.proName')}</strong>
          <span>{t('admin.upgrade.pro')}</span>
        </button>
        <button
          type="button"
          className="sa-upgrade-option"
          onClick={() => onChoose('business')}
          data-testid="sa-upgrade-business"
        >
          <strong>{t('admin.upgrade.businessName')}</strong>
          <span>{t('admin.upgrade.business')}</span>
        </button>
      </div>
    </Modal>
  );
}
