/**
 * The upgrade dialog (docs/product/payments.md PAY7): Upgrade to {Plan}, Unlock
 * premium features with our {plan} plan, and the current tier; Cancel, or go on to payment (the caller's action).
 */
import type { PaidPlan, Tier } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { TIER_NAMES } from '../../lib/planCopy.ts';

export function UpgradeDialog({
  plan,
  currentTier,
  busy = false,
  error = null,
  onContinue,
  onClose,
}: {
  plan: PaidPlan;
  currentTier: Tier;
  /** the payment is being prepared: nothing can be pressed */
  busy?: boolean;
  error?: string | null;
  onContinue(): void;
  onClose(): void;
}) {
  return (
    <Modal
      title={`Upgrade to ${TIER_NAMES[plan]}`}
      onClose={busy ? undefined : onClose}
      testId="upgrade-dialog"
      footer={
        <>
          <button type="button" className="button button-ghost" disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={onContinue}
            data-testid="upgrade-continue"
          >
            {busy ? 'Redirecting to payment…' : 'Continue to payment'}
          </button>
        </>
      }
    >
      <p>Unlock premium features with our {plan} plan</p>
      <p data-testid="upgrade-current-tier">Current plan: {TIER_NAMES[currentTier]}</p>
      {error && (
        <p className="account-error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
