/** The admin upgrade dialog (docs/product/admin.md ADM5): Pro (10 rooms, 25 users) or Business (unlimited) for a 30-day trial, or Cancel. */
import { Modal } from '../../components/Modal.tsx';
import { ADMIN_LIMITS } from '../../lib/adminApi.ts';

export function AdminUpgradeDialog({
  email,
  onChoose,
  onClose,
}: {
  email: string;
  onChoose(tier: 'pro' | 'business'): void;
  onClose(): void;
}) {
  return (
    <Modal
      title="Admin Upgrade"
      onClose={onClose}
      testId="sa-upgrade-dialog"
      footer={
        <button type="button" className="button button-ghost" onClick={onClose} data-testid="sa-upgrade-cancel">
          Cancel
        </button>
      }
    >
      <p>
        Give <strong>{email}</strong> a {ADMIN_LIMITS.trialDays}-day trial of:
      </p>
      <div className="sa-upgrade-options">
        <button
          type="button"
          className="sa-upgrade-option"
          onClick={() => onChoose('pro')}
          data-testid="sa-upgrade-pro"
        >
          <strong>Pro</strong>
          <span>10 rooms, 25 users</span>
        </button>
        <button
          type="button"
          className="sa-upgrade-option"
          onClick={() => onChoose('business')}
          data-testid="sa-upgrade-business"
        >
          <strong>Business</strong>
          <span>Unlimited</span>
        </button>
      </div>
    </Modal>
  );
}
