/**
 * /login (and /register): sign in or register with an e-mail code, or with Google (docs/product/accounts.md
 * A1-A5). Query: redirect (same-origin path, default /dashboard), plan (pro or business
 * only), claimWorkspace (the guest's room to claim: its owner token comes from this browser's room session, and the
 * claim's new owner token replaces it there).
 * The code step is ours: the server signs nobody in on an e-mail alone.
 * The claim flow (docs/product/accounts.md A9): with a pending upgrade or extension (lib/payments.ts), a successful sign-in shows
 * 'Registration Successful' and goes on to payment after 1.5 s (a pending extension's room is claimed on the way).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ERRORS } from '@ephemera/proto/client';
import { SiteNav } from '../components/SiteNav.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { readAuth, saveAuth } from '../lib/storage.ts';
import { accountApi, readAccount, safeRedirect, saveAccount, type AccountRecord } from '../lib/account.ts';
import { pendingPaymentOf } from '../lib/pendingPayments.ts';
import { payPending } from '../lib/payments.ts';
import { readPendingExtension } from '../lib/roomPrefs.ts';
import { claimPendingRoom } from '../lib/claim.ts';
import { googleStartUrl, useGoogleSignIn } from '../lib/googleSignIn.ts';
import { EmailCodeForm, type CodeSignIn } from '../components/EmailCodeForm.tsx';
import { loadArea, useT } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';
import { translateShared } from '../i18n/sharedTexts.ts';
import './accounts.css';

/** code: the e-mail code form (EmailCodeForm, its own two steps) */
type Step = 'code' | 'recover' | 'paying';
/** the post-registration redirect delay */
const PAYMENT_REDIRECT_MS = 1500;

export function LoginPage() {
  const t = useT();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const redirect = safeRedirect(params.get('redirect'));
  const plan = params.get('plan')?.toLowerCase();
  const claimWorkspace = params.get('claimWorkspace');
  const [step, setStep] = useState<Step>('code');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const google = useGoogleSignIn();

  const title = t('public.login.documentTitle');
  useEffect(() => {
    document.title = title;
  }, [title]);
  // the server's refusals (errorText) read the errors catalog: it downloads while the visitor types, so the page does
  // not wait for it (until it is there, a refusal shows in the server's English)
  useEffect(() => {
    loadArea('errors').catch(() => undefined);
  }, []);
  /** Signed in: a pending upgrade or extension goes on to payment; otherwise to the redirect target. */
  const finish = (record: AccountRecord) => {
    const pending = pendingPaymentOf();
    if (!pending) {
      void navigate(redirect, { replace: true });
      return;
    }
    setStep('paying');
    setError(null);
    setNotice(null);
    setTimeout(() => {
      void payPending(pending, record).then((r) => {
        if (r.kind !== 'error') return;
        window.alert(t('common.payment.afterRegistration'));
        window.location.reload();
      });
    }, PAYMENT_REDIRECT_MS);
  };
  useEffect(() => {
    if (plan === 'pro' || plan === 'business')
      try {
        localStorage.setItem('pendingUpgrade', JSON.stringify({ plan, returnUrl: redirect }));
      } catch {
        /* ignore */
      }
  }, [plan, redirect]);
  // Already signed in: straight to the target. Back from Google: spend the hand-off cookie for a session.
  useEffect(() => {
    const googleParam = params.get('google');
    if (googleParam === 'failed') {
      setError(t('public.login.googleCancelled'));
      return;
    }
    if (googleParam === 'off') {
      setError(translateShared(ERRORS.GOOGLE_NOT_CONFIGURED));
      return;
    }
    if (googleParam === '1') {
      void accountApi.googleAuth().then(async (r) => {
        if (!r.ok) {
          setError(r.message ? errorText(null, r.message) : t('public.login.googleFailed'));
          return;
        }
        const record = { token: r.data.token, user: r.data.user };
        saveAccount(record);
        await claimPendingRoom(record); // Claim Your Room's Google path: the room shows the outcome
        finish(record);
      });
      return;
    }
    if (readAccount()) void navigate(redirect, { replace: true });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const verify = async (input: CodeSignIn): Promise<string | null> => {
    const guest = readAuth();
    // the room of a pending extension is claimed too: only its owner account can pay to extend it
    const claimId = claimWorkspace ?? readPendingExtension()?.workspaceId ?? null;
    const claim =
      claimId && guest?.workspaceId === claimId ? { claimWorkspaceId: claimId, claimUserToken: guest.userToken } : {};
    const r = await accountApi.register({ ...input, ...claim }, readAccount()?.token ?? null);
    if (!r.ok) return r.message;
    const record = { token: r.data.token, user: r.data.user };
    saveAccount(record);
    if (r.data.claimError) {
      setNotice(null);
      setTimeout(() => finish(record), 2500);
      return r.data.claimError;
    }
    // The spec deletes the guest session on a successful claim: the guest's token stopped working when the room
    // service rotated it, so this browser keeps the room as its owner with the new one (it stays in the room, with
    // its files; a stale guest token would send it to the join form).
    if (r.data.newUserToken && guest && guest.workspaceId === claimId)
      saveAuth({ ...guest, userToken: r.data.newUserToken });
    finish(record);
    return null;
  };

  const recover = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) {
      setError(t('public.login.emailRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    const r = await accountApi.recoverUsername(email.trim());
    setBusy(false);
    if (!r.ok) {
      setError(r.message ? errorText(null, r.message) : t('public.login.recoveryFailed'));
      return;
    }
    setNotice(translateShared(r.data.message));
  };

  return (
    <div className="landing">
      <SiteNav />
      <main className="account-page" data-testid="login-page">
        {step === 'paying' ? (
          <section className="account-card" data-testid="registration-successful">
            <h1>{t('public.login.registered')}</h1>
            <p className="account-notice" role="status">
              {t('public.login.redirectingPayment')}
            </p>
          </section>
        ) : (
          <section className="account-card">
            <h1>{step === 'recover' ? t('public.login.recoverTitle') : t('public.login.title')}</h1>
            {claimWorkspace && step !== 'recover' && (
              <p className="account-hint" data-testid="claim-hint">
                {t('public.login.claimHint')}
              </p>
            )}
            {error && (
              <p className="account-error" role="alert" data-testid="login-error">
                {error}
              </p>
            )}
            {notice && (
              <p className="account-notice" role="status" data-testid="login-notice">
                {notice}
              </p>
            )}
            {step === 'code' && (
              <EmailCodeForm
                testIdPrefix="login"
                verifyLabel={t('public.login.signIn')}
                verifyingLabel={t('public.login.signingIn')}
                setError={setError}
                setNotice={setNotice}
                onVerify={verify}
              />
            )}
            {step === 'recover' && (
              <form onSubmit={recover} noValidate>
                <label>
                  {t('common.emailCode.email')}
                  <input
                    type="email"
                    value={email}
                    onChange={(e) => setEmail(e.target.value)}
                    data-testid="recover-email"
                  />
                </label>
                <button className="button button-primary" disabled={busy} data-testid="recover-submit">
                  {t('public.login.sendUsername')}
                </button>
                <button
                  type="button"
                  className="button button-ghost"
                  onClick={() => {
                    setStep('code');
                    setNotice(null);
                  }}
                >
                  {t('public.login.backToSignIn')}
                </button>
              </form>
            )}
            {step !== 'recover' && (
              <div className="account-alt">
                {google && (
                  <a className="button button-ghost" href={googleStartUrl(redirect)} data-testid="login-google">
                    {t('public.login.google')}
                  </a>
                )}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    setStep('recover');
                    setError(null);
                    setNotice(null);
                  }}
                >
                  {t('public.login.forgotUsername')}
                </button>
              </div>
            )}
          </section>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}
