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
import { PAYMENT_TEXT } from '../../lib/paymentTexts.ts';
import { startExtensionPayment } from '../../lib/payments.ts';
import type { Result } from '../../lib/commandResult.ts';
import { UPGRADE_REASONS } from './adminDialog.ts';
import { ExtendChoices, type ExtendDays } from './ExtendChoices.tsx';
import { useT } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

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
  const t = useT();
  const [days, setDays] = useState<ExtendDays>(7);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'choose' });
  const free = ENTITLEMENTS[tier].freeExtension;
  const paid = free ? null : paidPath(roomName);

  if (outcome.kind === 'done') {
    return (
      <Modal
        title={t('roomside.extend.doneTitle')}
        onClose={onClose}
        tone="success"
        icon={<CheckIcon size={22} />}
        testId="extend-success-modal"
        footer={
          <button type="button" className="button button-primary" onClick={onClose}>
            {t('roomside.extend.done')}
          </button>
        }
      >
        <p>{t('roomside.extend.doneText', { days: outcome.days })}</p>
      </Modal>
    );
  }
  if (outcome.kind === 'failed') {
    return (
      <Modal
        title={t('roomside.extend.failedTitle')}
        onClose={onClose}
        tone="danger"
        icon={<AlertIcon size={22} />}
        testId="extend-failed-modal"
        footer={
          <button type="button" className="button button-primary" onClick={() => setOutcome({ kind: 'choose' })}>
            {t('roomside.extend.tryAgain')}
          </button>
        }
      >
        <p>{errorText(null, PAYMENT_TEXT.extendFailed)}</p>
        {outcome.reason && outcome.reason !== PAYMENT_TEXT.extendFailed && (
          <p className="field-hint" data-testid="extend-failed-reason">
            {errorText(null, outcome.reason)}
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
      title={t('roomside.extend.title')}
      onClose={busy ? undefined : onClose}
      icon={<ClockIcon size={22} />}
      testId="extend-modal"
    >
      <div className="modal-form">
        {isHurry(expiresAt, Date.now()) && (
          <p className="hurry-line" role="alert" data-testid="extend-hurry">
            {t('roomside.extend.hurry')}
          </p>
        )}
        <ExtendChoices days={days} free={free} onChoose={setDays} />
        {paid && (
          <p className="field-hint" data-testid="extend-upgrade-reason">
            {t(UPGRADE_REASONS.extension)}
          </p>
        )}
        {paid?.guest && (
          <p className="field-hint" data-testid="extend-register-prompt">
            {t('roomside.extend.registerFirst')}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
            {t('roomside.action.cancel')}
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
                ? t('public.login.redirectingPayment')
                : t('roomside.extend.extending')
              : paid
                ? paid.guest
                  ? t('roomside.extend.register')
                  : t('roomside.upgrade.continue')
                : t('roomside.extend.extendBy', { days })}
          </button>
        </div>
      </div>
    </Modal>
  );
}
