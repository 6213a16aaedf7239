/**
 * Extend Room Duration (docs/product/rooms.md R35): 7 days (168 hours, Standard) or 30 days (720, Maximum, Popular;
 * ExtendChoices.tsx).
 * Pro and business rooms extend free (extend-workspace). A free room needs payment: a guest first stores
 * pendingExtension and registers (/login?redirect=...), a signed-in user goes to payment (create-room-extension-payment,
 * then Stripe Checkout; lib/payments.ts). The server decides in every case; this only picks the path.
 */
import { useState } from 'react';
import { ENTITLEMENTS, type Tier } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { AlertIcon, CheckIcon, ClockIcon } from '../Icons.tsx';
import { isHurry } from '../../lib/expiry.ts';
import { hasAccountSession, savePendingExtension } from '../../lib/roomPrefs.ts';
import { roomPath } from '../../lib/routes.ts';
import { PAYMENT_TEXT, startExtensionPayment } from '../../lib/payments.ts';
import type { Result } from '../../lib/conversationCommands.ts';
import { UPGRADE_REASONS } from './adminDialog.ts';
import { ExtendChoices, type ExtendDays } from './ExtendChoices.tsx';

export const MSG_REGISTER_TO_EXTEND = '🔐 Please register first to extend room duration';
export const MSG_HURRY = 'Hurry! Room expires in less than 2 hours';
export const extendedText = (days: number) => `Your room has been extended by ${days} days.`;

interface Props {
  tier: Tier;
  expiresAt: string | null;
  roomName: string;
  workspaceId: string;
  onClose(): void;
  extend(days: 7 | 30): Promise<Result>;
}

type Outcome = { kind: 'choose' } | { kind: 'done'; days: number } | { kind: 'failed'; reason?: string };

/** Where a free room's extension goes: registration first for a guest, else payment. */
function paidPath(roomName: string): { href: string | null; guest: boolean } {
  if (!hasAccountSession()) {
    const back = `${roomPath(roomName)}?resumeExtension=true`;
    return { href: `/login?redirect=${encodeURIComponent(back)}`, guest: true };
  }
  return { href: null, guest: false };
}

export function ExtendModal({ tier, expiresAt, roomName, workspaceId, onClose, extend }: Props) {
  const [days, setDays] = useState<ExtendDays>(7);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'choose' });
  const free = ENTITLEMENTS[tier].freeExtension;
  const paid = free ? null : paidPath(roomName);

  if (outcome.kind === 'done') {
    return (
      <Modal
        title="Room Extended!"
        onClose={onClose}
        tone="success"
        icon={<CheckIcon size={22} />}
        testId="extend-success-modal"
        footer={
          <button type="button" className="button button-primary" onClick={onClose}>
            Done
          </button>
        }
      >
        <p>{extendedText(outcome.days)}</p>
      </Modal>
    );
  }
  if (outcome.kind === 'failed') {
    return (
      <Modal
        title="Extension Failed"
        onClose={onClose}
        tone="danger"
        icon={<AlertIcon size={22} />}
        testId="extend-failed-modal"
        footer={
          <button type="button" className="button button-primary" onClick={() => setOutcome({ kind: 'choose' })}>
            Try again
          </button>
        }
      >
        <p>{PAYMENT_TEXT.extendFailed}</p>
        {outcome.reason && outcome.reason !== PAYMENT_TEXT.extendFailed && (
          <p className="field-hint" data-testid="extend-failed-reason">
            {outcome.reason}
          </p>
        )}
      </Modal>
    );
  }

  const submit = async () => {
    if (paid?.href) {
      if (paid.guest) savePendingExtension({ workspaceId, roomName, days, returnUrl: roomPath(roomName) });
      window.location.assign(paid.href);
      return;
    }
    if (paid) {
      // signed in: the server makes the checkout session (only the room's owner account may pay for it)
      setBusy(true);
      const r = await startExtensionPayment({ workspaceId, roomName, days, returnUrl: roomPath(roomName) });
      if (r.kind === 'error') {
        setBusy(false);
        setOutcome({ kind: 'failed', reason: r.message });
      }
      return;
    }
    setBusy(true);
    const r = await extend(days);
    setBusy(false);
    setOutcome(r.ok ? { kind: 'done', days } : { kind: 'failed' });
  };

  return (
    <Modal
      title="Extend Room Duration"
      onClose={busy ? undefined : onClose}
      icon={<ClockIcon size={22} />}
      testId="extend-modal"
    >
      <div className="modal-form">
        {isHurry(expiresAt, Date.now()) && (
          <p className="hurry-line" role="alert" data-testid="extend-hurry">
            {MSG_HURRY}
          </p>
        )}
        <ExtendChoices days={days} free={free} onChoose={setDays} />
        {paid && (
          <p className="field-hint" data-testid="extend-upgrade-reason">
            {UPGRADE_REASONS.extension}
          </p>
        )}
        {paid?.guest && (
          <p className="field-hint" data-testid="extend-register-prompt">
            {MSG_REGISTER_TO_EXTEND}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void submit()}
            disabled={busy}
            data-testid="extend-submit"
          >
            {busy
              ? paid
                ? 'Redirecting to payment...'
                : 'Extending...'
              : paid
                ? paid.guest
                  ? 'Register to extend'
                  : 'Continue to payment'
                : `Extend by ${days} days`}
          </button>
        </div>
      </div>
    </Modal>
  );
}
