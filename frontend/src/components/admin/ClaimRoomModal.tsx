/**
 * Claim Your Room (docs/product/accounts.md A9), opened from the settings panel's register banner: the guest owner
 * registers by a mailed code, or by Google when the server offers it, and the room becomes the account's. A
 * pending extension or upgrade then goes on to payment after 1.5 s, as after /login.
 */
import { useState, type FormEvent } from 'react';
import { Modal } from '../Modal.tsx';
import { AlertIcon, CheckIcon } from '../Icons.tsx';
import { accountApi } from '../../lib/account.ts';
import { registerAndClaim, savePendingClaim, type ClaimOutcome } from '../../lib/claim.ts';
import { useGoogleSignIn, googleStartUrl } from '../../lib/googleSignIn.ts';
import { PAYMENT_TEXT, payPending, pendingPaymentOf } from '../../lib/payments.ts';
import { roomPath } from '../../lib/routes.ts';
import { CLAIM_TEXT } from '../../lib/texts.ts';

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
  const google = useGoogleSignIn();
  const [step, setStep] = useState<'details' | 'code' | 'done' | 'paying'>(initial ? 'done' : 'details');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState(initialName);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ClaimOutcome | null>(initial ?? null);

  const sendCode = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!email.trim() || !username.trim()) {
      setError('Please fill in all fields');
      return;
    }
    setBusy(true);
    setError(null);
    const r = await accountApi.requestCode(email.trim());
    setBusy(false);
    if (!r.ok) {
      setError(r.message);
      return;
    }
    setNotice(r.data.message);
    setStep('code');
  };

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return; // duplicate submissions are ignored
    setBusy(true);
    setError(null);
    const r = await registerAndClaim(
      { email: email.trim(), username: username.trim(), code: code.trim() },
      workspaceId,
    );
    setBusy(false);
    if (!r.account) {
      setError(r.error);
      return;
    }
    setOutcome(r.outcome);
    const pending = pendingPaymentOf();
    if (!pending) {
      setStep('done');
      return;
    }
    setStep('paying');
    const account = r.account;
    setTimeout(() => {
      void payPending(pending, account).then((p) => {
        if (p.kind !== 'error') return;
        window.alert(PAYMENT_TEXT.afterRegistration);
        window.location.reload();
      });
    }, PAYMENT_REDIRECT_MS);
  };

  if (step === 'done' || step === 'paying') {
    const ok = outcome?.claimed === true;
    return (
      <Modal
        title={step === 'paying' ? 'Registration Successful' : CLAIM_TEXT.title}
        tone={ok ? 'success' : 'warning'}
        icon={ok ? <CheckIcon size={22} /> : <AlertIcon size={22} />}
        onClose={step === 'paying' ? undefined : onClose}
        testId="claim-modal"
        footer={
          step === 'done' ? (
            <button type="button" className="button button-primary" onClick={onClose} data-testid="claim-done">
              Continue
            </button>
          ) : undefined
        }
      >
        <p role={ok ? 'status' : 'alert'} data-testid="claim-outcome">
          {outcome?.message}
        </p>
        {step === 'paying' && <p role="status">Redirecting to payment...</p>}
      </Modal>
    );
  }

  return (
    <Modal title={CLAIM_TEXT.title} onClose={busy ? undefined : onClose} testId="claim-modal">
      <p>Register to keep {roomName}: the room becomes your account&apos;s, and you can manage it from any device.</p>
      {error && (
        <div className="form-error" role="alert" data-testid="claim-error">
          <AlertIcon size={16} /> <span>{error}</span>
        </div>
      )}
      {notice && step === 'code' && (
        <p role="status" data-testid="claim-notice">
          {notice}
        </p>
      )}
      {step === 'details' ? (
        <form onSubmit={sendCode} className="modal-form" noValidate>
          <label className="field">
            E-mail
            <input
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="claim-email"
            />
          </label>
          <label className="field">
            Username
            <input
              autoComplete="username"
              maxLength={30}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              data-testid="claim-username"
            />
          </label>
          <button className="button button-primary" disabled={busy} data-testid="claim-send-code">
            {busy ? 'Sending…' : 'Email me a sign-in code'}
          </button>
          {google && (
            <a
              className="button button-ghost"
              href={googleStartUrl(roomPath(roomName))}
              onClick={() => savePendingClaim(workspaceId)}
              data-testid="claim-google"
            >
              Continue with Google
            </a>
          )}
        </form>
      ) : (
        <form onSubmit={verify} className="modal-form" noValidate>
          <label className="field">
            The 6-digit code we e-mailed to {email}
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              data-testid="claim-code"
            />
          </label>
          <button
            className="button button-primary"
            disabled={busy || code.trim().length !== 6}
            data-testid="claim-verify"
          >
            {busy ? 'Registering…' : 'Register and claim the room'}
          </button>
          <button
            type="button"
            className="button button-ghost"
            disabled={busy}
            onClick={() => {
              setStep('details');
              setCode('');
            }}
          >
            Use another address
          </button>
        </form>
      )}
    </Modal>
  );
}
