/**
 * Upgrade plans inside the room (docs/product/payments.md PAY1, rooms.md R1): the three plans with their prices and
 * what each adds, the room's plan marked, an upgrade button for each plan above it. Opened by the settings panel's
 * Upgrade Plan and by ?openUpgrade=true. Signed in, a choice goes to checkout; a guest owner's choice is kept as
 * pendingUpgrade and Claim Your Room opens (payment follows the registration, docs/product/accounts.md A9);
 * anyone else signs in first (/login, as on the pricing page).
 */
import { useState } from 'react';
import type { PaidPlan, Tier } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { SparkIcon } from '../Icons.tsx';
import { readAccount } from '../../lib/account.ts';
import { PAYMENT_TEXT, paymentErrorText } from '../../lib/paymentTexts.ts';
import { savePendingUpgrade } from '../../lib/pendingPayments.ts';
import { startCheckout } from '../../lib/payments.ts';
import { cancelAnytime, moneyBack, priceOfTier, pricingFeatures } from '../../lib/planCopy.ts';
import { roomPath } from '../../lib/routes.ts';
import { TIER_NAME_KEYS } from './adminDialog.ts';
import './admin.css';
import { useT } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

const ORDER: Tier[] = ['free', 'pro', 'business'];

interface Props {
  tier: Tier;
  roomName: string;
  /** the room's guest owner (no account in this browser): registers in Claim Your Room before paying */
  guestOwner: boolean;
  onClaim(): void;
  onClose(): void;
}

export function PlansModal({ tier, roomName, guestOwner, onClaim, onClose }: Props) {
  const t = useT();
  const [busy, setBusy] = useState<PaidPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const choose = async (plan: PaidPlan) => {
    if (busy) return;
    setError(null);
    if (guestOwner && !readAccount()) {
      savePendingUpgrade({ plan, returnUrl: roomPath(roomName) });
      onClaim();
      return;
    }
    setBusy(plan);
    const r = await startCheckout(plan);
    if (r.kind !== 'error') return; // the browser is leaving for checkout or sign-in
    setBusy(null);
    setError(errorText(null, r.message === PAYMENT_TEXT.selectPlan ? r.message : paymentErrorText(r.message)));
  };
  return (
    <Modal
      title={t('roomside.plans.title')}
      icon={<SparkIcon size={22} />}
      size="md"
      onClose={busy ? undefined : onClose}
      testId="plans-modal"
    >
      <div className="plans-dialog-grid">
        {ORDER.map((plan) => {
          const above = ORDER.indexOf(plan) > ORDER.indexOf(tier);
          return (
            <section
              key={plan}
              className={`plans-dialog-card${plan === tier ? ' current' : ''}`}
              data-testid={`plans-${plan}`}
              aria-labelledby={`plans-${plan}-title`}
            >
              <h3 id={`plans-${plan}-title`}>{t(TIER_NAME_KEYS[plan])}</h3>
              <p className="plans-dialog-price" data-testid={`plans-${plan}-price`}>
                {priceOfTier(plan)}
              </p>
              <ul className="plans-dialog-list">
                {pricingFeatures(plan).map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              {plan === tier && (
                <p className="plans-dialog-current" data-testid="plans-current">
                  {t('roomside.plans.current')}
                </p>
              )}
              {above && plan !== 'free' && (
                <button
                  type="button"
                  className="button button-primary"
                  disabled={busy !== null}
                  onClick={() => void choose(plan)}
                  data-testid={`plans-choose-${plan}`}
                >
                  {busy === plan
                    ? t('roomside.plans.redirecting')
                    : t('roomside.upgrade.title', { plan: t(TIER_NAME_KEYS[plan]) })}
                </button>
              )}
            </section>
          );
        })}
      </div>
      {error && (
        <p className="form-error" role="alert" data-testid="plans-error">
          {error}
        </p>
      )}
      <p className="field-hint">
        {moneyBack()} · {cancelAnytime()}
      </p>
    </Modal>
  );
}
