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
import { PAYMENT_TEXT, paymentErrorText, savePendingUpgrade, startCheckout } from '../../lib/payments.ts';
import { CANCEL_ANYTIME, MONEY_BACK, PRICING_FEATURES, TIER_NAMES, priceOfTier } from '../../lib/planCopy.ts';
import { roomPath } from '../../lib/routes.ts';
import './admin.css';

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
    setError(r.message === PAYMENT_TEXT.selectPlan ? r.message : paymentErrorText(r.message));
  };
  return (
    <Modal
      title="Upgrade Plans"
      icon={<SparkIcon size={22} />}
      size="md"
      onClose={busy ? undefined : onClose}
      testId="plans-modal"
    >
      <div className="plans-dialog-grid">
        {ORDER.map((t) => {
          const above = ORDER.indexOf(t) > ORDER.indexOf(tier);
          return (
            <section
              key={t}
              className={`plans-dialog-card${t === tier ? ' current' : ''}`}
              data-testid={`plans-${t}`}
              aria-labelledby={`plans-${t}-title`}
            >
              <h3 id={`plans-${t}-title`}>{TIER_NAMES[t]}</h3>
              <p className="plans-dialog-price" data-testid={`plans-${t}-price`}>
                {priceOfTier(t)}
              </p>
              <ul className="plans-dialog-list">
                {PRICING_FEATURES[t].map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              {t === tier && (
                <p className="plans-dialog-current" data-testid="plans-current">
                  Current plan
                </p>
              )}
              {above && t !== 'free' && (
                <button
                  type="button"
                  className="button button-primary"
                  disabled={busy !== null}
                  onClick={() => void choose(t)}
                  data-testid={`plans-choose-${t}`}
                >
                  {busy === t ? 'Redirecting…' : `Upgrade to ${TIER_NAMES[t]}`}
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
        {MONEY_BACK} · {CANCEL_ANYTIME}
      </p>
    </Modal>
  );
}
