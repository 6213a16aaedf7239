/**
 * /payment/success, where Stripe Checkout returns (docs/product/payments.md PAY9):
 * 'Processing Payment' while the server verifies the session Stripe named (GET verify-session/{session_id}, read back
 * from Stripe; the query's plan and amount are never believed), then the subscription or room-extension success (an
 * extension is completed through complete-room-extension), or 'Payment Verification Failed'.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { CenteredScreen } from '../components/StatusScreens.tsx';
import { AlertIcon, CheckIcon } from '../components/Icons.tsx';
import { readAccount, saveAccount } from '../lib/account.ts';
import { confirmPayment, type PaymentOutcome } from '../lib/payments.ts';
import { extensionIncluded, successFeatures } from '../lib/planCopy.ts';
import { errorText } from '../i18n/errorText.ts';
import { t as translate, useCatalog, useT, type MessageId } from '../i18n/i18n.ts';
import { Trans } from '../i18n/Trans.tsx';
import { formatDate } from '../i18n/format.ts';
import './accounts.css';
import './payments.css';

const TITLES: Record<'loading' | 'failed' | 'done', MessageId> = {
  loading: 'account.success.processing',
  failed: 'account.success.verificationFailed',
  done: 'account.success.title',
};

/** the new expiry with seconds, in the language's own order and clock (1/7/2027, 8:37:20 PM / 7.1.2027, 20:37:20) */
const EXPIRY_FORMAT: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};

function Card({ children, testId, state }: { children: ReactNode; testId: string; state: string }) {
  return (
    <main className="payment-card-wrap" data-testid="payment-success-page" data-state={state}>
      <CenteredScreen testId={testId}>{children}</CenteredScreen>
    </main>
  );
}

export function PaymentSuccessPage() {
  useCatalog('account');
  const t = useT();
  const [params] = useSearchParams();
  const [outcome, setOutcome] = useState<PaymentOutcome | null>(null);
  const state = outcome === null ? 'loading' : outcome.kind === 'failed' ? 'failed' : 'done';

  useEffect(() => {
    document.title = translate('account.success.documentTitle', { title: translate(TITLES[state]) });
  }, [state, t]);
  useEffect(() => {
    let live = true;
    const account = readAccount();
    void confirmPayment(params, account?.token ?? null).then((o) => {
      if (!live) return;
      setOutcome(o);
      // the stored account record learns the new tier (the pricing page and the dashboard read it)
      if (o.kind === 'subscription' && account && o.user) saveAccount({ token: account.token, user: o.user });
    });
    return () => {
      live = false;
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  if (!outcome) {
    return (
      <Card testId="payment-processing" state={state}>
        <div className="spinner" aria-hidden="true" />
        <h1 className="overlay-title">{t('account.success.processing')}</h1>
        <p className="overlay-sub" role="status">
          {t('account.success.wait')}
        </p>
      </Card>
    );
  }
  if (outcome.kind === 'failed') {
    return (
      <Card testId="payment-failed" state={state}>
        <div className="status-icon tone-danger" aria-hidden="true">
          <AlertIcon size={26} />
        </div>
        <h1 className="overlay-title">{t('account.success.verificationFailed')}</h1>
        <p className="overlay-sub" role="alert" data-testid="payment-failed-message">
          {errorText(null, outcome.message)}
        </p>
        <div className="button-row">
          <a className="button button-primary" href="/">
            {t('account.success.returnHome')}
          </a>
        </div>
      </Card>
    );
  }
  if (outcome.kind === 'extension') {
    const expiry = outcome.newExpiryDate ? new Date(outcome.newExpiryDate) : null;
    return (
      <Card testId="payment-extension-success" state={state}>
        <div className="status-icon tone-success" aria-hidden="true">
          <CheckIcon size={26} />
        </div>
        <h1 className="overlay-title">{t('account.success.title')}</h1>
        <p className="overlay-sub" data-testid="extension-text">
          {outcome.roomName ? (
            <Trans
              id="account.success.roomExtended"
              values={{ room: outcome.roomName, count: outcome.days }}
              components={{ 0: <strong /> }}
            />
          ) : (
            t('account.success.extended', { count: outcome.days })
          )}
        </p>
        <p className="overlay-sub" role="status" data-testid="extension-done">
          {t('account.text.roomExtended', { days: outcome.days })}
        </p>
        <dl className="account-facts" data-testid="extension-details">
          <dt>{t('account.success.purchase')}</dt>
          <dd>{t('account.success.extension', { count: outcome.days })}</dd>
          <dt>{t('account.success.amount')}</dt>
          <dd>{t('account.success.oneTime', { amount: outcome.amount })}</dd>
          {expiry && (
            <>
              <dt>{t('account.success.newExpiry')}</dt>
              <dd data-testid="new-expiry">{formatDate(expiry, EXPIRY_FORMAT)}</dd>
            </>
          )}
        </dl>
        <ul className="check-list">
          {extensionIncluded(outcome.days).map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
        <div className="button-row">
          <a className="button button-primary" href={outcome.backTo} data-testid="back-to-room">
            {t('account.success.backToRoom')}
          </a>
          <a className="button button-ghost" href="/dashboard">
            {t('account.success.viewDashboard')}
          </a>
        </div>
      </Card>
    );
  }
  return (
    <Card testId="payment-subscription-success" state={state}>
      <div className="status-icon tone-success" aria-hidden="true">
        <CheckIcon size={26} />
      </div>
      <h1 className="overlay-title">{t('account.success.title')}</h1>
      <p className="overlay-sub" data-testid="welcome-text">
        {t('account.success.welcome', { plan: outcome.name })}
      </p>
      {outcome.settleError && (
        <p className="overlay-sub form-error" role="alert" data-testid="payment-settle-error">
          {errorText(null, outcome.settleError)}
        </p>
      )}
      <dl className="account-facts" data-testid="subscription-details">
        <dt>{t('account.success.plan')}</dt>
        <dd data-testid="paid-plan">{outcome.name}</dd>
        <dt>{t('account.success.amount')}</dt>
        <dd data-testid="paid-amount">{t('account.success.perMonth', { amount: outcome.amount })}</dd>
        <dt>{t('account.success.billing')}</dt>
        <dd>{t('account.success.billedMonthly')}</dd>
      </dl>
      <ul className="check-list">
        {successFeatures(outcome.plan).map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <div className="button-row">
        <a className="button button-primary" href="/dashboard">
          {t('account.success.toDashboard')}
        </a>
        <a className="button button-ghost" href="/">
          {t('account.success.newRoom')}
        </a>
      </div>
      <p className="payment-small">{t('account.success.receipt', { email: outcome.email })}</p>
      {outcome.subscriptionId && (
        <p className="payment-small" data-testid="subscription-id">
          {t('account.success.subscriptionId', { id: outcome.subscriptionId.slice(0, 20) })}
        </p>
      )}
    </Card>
  );
}
