/**
 * The upgrade dialog (docs/product/payments.md PAY7): Upgrade to {Plan}, Unlock
 * premium features with our {plan} plan, and the current tier; Cancel, or go on to payment (the caller's action).
 */
import type { PaidPlan, Tier } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { tierName } from '../../lib/planCopy.ts';
import { Suspense } from 'react';
import { useCatalog, useT } from '../../i18n/i18n.ts';

/** The dialog's texts come with the roomside catalog; only the dialog waits for it (it opens outside the room too). */
export function UpgradeDialog(props: UpgradeDialogProps) {
  return (
    <Suspense fallback={null}>
      <UpgradeDialogContent {...props} />
    </Suspense>
  );
}

interface UpgradeDialogProps {
  plan: PaidPlan;
  currentTier: Tier;
  /** the payment is being prepared: nothing can be pressed */
  busy?: boolean;
  error?: string | null;
  onContinue(): void;
  onClose(): void;
}

function UpgradeDialogContent({
  plan,
  currentTier,
  busy = false,
  error = null,
  onContinue,
  onClose,
}: UpgradeDialogProps) {
  useCatalog('roomside');
  const t = useT();
  return (
    <Modal
      title={t('roomside.upgrade.title', { plan: tierName(plan) })}
      onClose={busy ? undefined : onClose}
      testId="upgrade-dialog"
      footer={
        <>
          <button type="button" className="button button-ghost" disabled={busy} onClick={onClose}>
            {t('roomside.action.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={onContinue}
            data-testid="upgrade-continue"
          >
            {busy ? t('roomside.upgrade.redirecting') : t('roomside.upgrade.continue')}
          </button>
        </>
      }
    >
      <p>{t('roomside.upgrade.unlock', { plan })}</p>
      <p data-testid="upgrade-current-tier">{t('roomside.upgrade.current', { plan: tierName(currentTier) })}</p>
      {error && (
        <p className="account-error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
