/**
 * Sign-in by a mailed code (docs/product/accounts.md A1, A9), the one form /login and Claim Your Room share: the
 * e-mail and username, "Email me a sign-in code", then the 6-digit code. What the code is spent on (signing in,
 * registering and claiming a room) is the host's: it gets the three values and answers with a refusal's text or
 * null. Errors and notices show where the host shows them.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { accountApi } from '../lib/account.ts';
import { useT } from '../i18n/i18n.ts';
import { translateShared } from '../i18n/sharedTexts.ts';
import { errorText } from '../i18n/errorText.ts';

export interface CodeSignIn {
  email: string;
  username: string;
  code: string;
}

interface Props {
  /** the data-testid prefix of the fields and buttons: login-email, claim-verify, ... */
  testIdPrefix: 'login' | 'claim';
  initialUsername?: string;
  formClassName?: string;
  labelClassName?: string;
  verifyLabel: string;
  verifyingLabel: string;
  /** shown under "Email me a sign-in code" (Claim Your Room's Google button) */
  detailsExtra?: ReactNode;
  setError(message: string | null): void;
  setNotice(message: string | null): void;
  onBusyChange?(busy: boolean): void;
  /** the code is sent: the host spends it; a refusal's text, or null */
  onVerify(input: CodeSignIn): Promise<string | null>;
}

export function EmailCodeForm(p: Props) {
  const t = useT();
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState(p.initialUsername ?? '');
  const [code, setCode] = useState('');
  const [busy, setBusyState] = useState(false);
  const setBusy = (b: boolean) => {
    setBusyState(b);
    p.onBusyChange?.(b);
  };
  const id = (name: string) => `${p.testIdPrefix}-${name}`;

  const sendCode = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!email.trim() || !username.trim()) {
      p.setError(t('common.emailCode.fillAll'));
      return;
    }
    setBusy(true);
    p.setError(null);
    const r = await accountApi.requestCode(email.trim());
    setBusy(false);
    if (!r.ok) {
      p.setError(errorText(null, r.message));
      return;
    }
    p.setNotice(translateShared(r.data.message));
    setStep('code');
  };

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return; // duplicate submissions are ignored
    setBusy(true);
    p.setError(null);
    const refused = await p.onVerify({ email: email.trim(), username: username.trim(), code: code.trim() });
    setBusy(false);
    if (refused) p.setError(errorText(null, refused));
  };

  if (step === 'details')
    return (
      <form onSubmit={sendCode} className={p.formClassName} noValidate>
        <label className={p.labelClassName}>
          {t('common.emailCode.email')}
          <input
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-testid={id('email')}
          />
        </label>
        <label className={p.labelClassName}>
          {t('common.emailCode.username')}
          <input
            autoComplete="username"
            maxLength={30}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            data-testid={id('username')}
          />
        </label>
        <button className="button button-primary" disabled={busy} data-testid={id('send-code')}>
          {busy ? t('common.emailCode.sending') : t('common.emailCode.send')}
        </button>
        {p.detailsExtra}
      </form>
    );
  return (
    <form onSubmit={verify} className={p.formClassName} noValidate>
      <label className={p.labelClassName}>
        {t('common.emailCode.codeLabel', { email })}
        <input
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          data-testid={id('code')}
        />
      </label>
      <button className="button button-primary" disabled={busy || code.trim().length !== 6} data-testid={id('verify')}>
        {busy ? p.verifyingLabel : p.verifyLabel}
      </button>
      <button
        type="button"
        className="button button-ghost"
        disabled={busy}
        onClick={() => {
          setStep('details');
          setCode('');
          p.setNotice(null);
        }}
      >
        {t('common.emailCode.otherAddress')}
      </button>
    </form>
  );
}
