/**
 * Claim Your Room (docs/product/accounts.md A9), opened from the settings panel's register banner: the guest owner
 * registers by a mailed code, or by Google when the server offers it, and the room becomes the account's. A
 * pending extension or upgrade then goes on to payment after 1.5 s, as after /login.
 */
import { useState } from 'react';
import { Modal } from '../Modal.tsx';
import { AlertIcon, CheckIcon } from '../Icons.tsx';
import { EmailCodeForm, type CodeSignIn } from '../EmailCodeForm.tsx';
import { registerAndClaim, savePendingClaim, type ClaimOutcome } from '../../lib/claim.ts';
import { useGoogleSignIn, googleStartUrl } from '../../lib/googleSignIn.ts';
import { pendingPaymentOf } from '../../lib/pendingPayments.ts';
import { payPending } from '../../lib/payments.ts';
import { roomPath } from '../../lib/routes.ts';
import { claimOutcomeText } from '../../lib/texts.ts';
import { useT } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

const PAYMENT_REDIRECT_MS = 1500;

interface Props {
  workspaceId: string;
  roomName: string;
  username: string;
  /** shown at once: the outcome of a claim made through Google while the page was away */
  outcome?: ClaimOutcome;
  onClose(): void;
}

export function ClaimRoomModal({ workspaceId, roomName, username: initialName, outcome: initial, onClose }: Props) {
  const t = useT();
  const google = useGoogleSignIn();
  const [step, setStep] = useState<'form' | 'done' | 'paying'>(initial ? 'done' : 'form');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ClaimOutcome | null>(initial ?? null);

  const verify = async (input: CodeSignIn): Promise<string | null> => {
    const r = await registerAndClaim(input, workspaceId);
    if (!r.account) return r.error;
    setOutcome(r.outcome);
    const pending = pendingPaymentOf();
    if (!pending) {
      setStep('done');
      return null;
    }
    setStep('paying');
    const account = r.account;
    setTimeout(() => {
      void payPending(pending, account).then((p) => {
        if (p.kind !== 'error') return;
        window.alert(t('common.payment.afterRegistration'));
        window.location.reload();
      });
    }, PAYMENT_REDIRECT_MS);
    return null;
  };

  if (step === 'done' || step === 'paying') {
    const ok = outcome?.claimed === true;
    return (
      <Modal
        title={step === 'paying' ? t('roomside.claim.registered') : t('roomside.claim.title')}
        tone={ok ? 'success' : 'warning'}
        icon={ok ? <CheckIcon size={22} /> : <AlertIcon size={22} />}
        onClose={step === 'paying' ? undefined : onClose}
        testId="claim-modal"
        footer={
          step === 'done' ? (
            <button type="button" className="button button-primary" onClick={onClose} data-testid="claim-done">
              {t('roomside.claim.continue')}
            </button>
          ) : undefined
        }
      >
        <p role={ok ? 'status' : 'alert'} data-testid="claim-outcome">
          {outcome ? claimOutcomeText(outcome.message) : null}
        </p>
        {step === 'paying' && <p role="status">{t('public.login.redirectingPayment')}</p>}
      </Modal>
    );
  }

  return (
    <Modal title={t('roomside.claim.title')} onClose={busy ? undefined : onClose} testId="claim-modal">
      <p>{t('roomside.claim.intro', { roomName })}</p>
      {error && (
        <div className="form-error" role="alert" data-testid="claim-error">
          <AlertIcon size={16} /> <span>{errorText(null, error)}</span>
        </div>
      )}
      {notice && (
        <p role="status" data-testid="claim-notice">
          {errorText(null, notice)}
        </p>
      )}
      <EmailCodeForm
        testIdPrefix="claim"
        initialUsername={initialName}
        formClassName="modal-form"
        labelClassName="field"
        verifyLabel={t('roomside.claim.verify')}
        verifyingLabel={t('roomside.claim.verifying')}
        setError={setError}
        setNotice={setNotice}
        onBusyChange={setBusy}
        onVerify={verify}
        detailsExtra={
          google && (
            <a
              className="button button-ghost"
              href={googleStartUrl(roomPath(roomName))}
              onClick={() => savePendingClaim(workspaceId)}
              data-testid="claim-google"
            >
              {t('public.login.google')}
            </a>
          )
        }
      />
    </Modal>
  );
}
