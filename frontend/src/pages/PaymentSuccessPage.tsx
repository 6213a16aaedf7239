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
import { PAYMENT_TEXT, confirmPayment, daysText, type PaymentOutcome } from '../lib/payments.ts';
import { SUCCESS_INCLUDED, extensionIncluded } from '../lib/planCopy.ts';
import { UI_TEXT } from '../lib/texts.ts';
import './accounts.css';
import './payments.css';

const TITLES = {
  loading: 'Processing Payment',
  failed: PAYMENT_TEXT.verificationTitle,
  done: 'Payment Successful',
} as const;

function Card({ children, testId, state }: { children: ReactNode; testId: string; state: string }) {
  return (
    <main className="payment-card-wrap" data-testid="payment-success-page" data-state={state}>
      <CenteredScreen testId={testId}>{children}</CenteredScreen>
    </main>
  );
}

export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const [outcome, setOutcome] = useState<PaymentOutcome | null>(null);
  const state = outcome === null ? 'loading' : outcome.kind === 'failed' ? 'failed' : 'done';

  useEffect(() => {
    document.title = `${TITLES[state]} · Ephemera`;
  }, [state]);
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
        <h1 className="overlay-title">Processing Payment</h1>
        <p className="overlay-sub" role="status">
          Please wait while we confirm your subscription...
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
        <h1 className="overlay-title">Payment Verification Failed</h1>
        <p className="overlay-sub" role="alert" data-testid="payment-failed-message">
          {outcome.message}
        </p>
        <div className="button-row">
          <a className="button button-primary" href="/">
            Return Home
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
        <h1 className="overlay-title">Payment Successful</h1>
        <p className="overlay-sub" data-testid="extension-text">
          Your room {outcome.roomName ? <strong>{outcome.roomName}</strong> : ''} has been extended by{' '}
          {daysText(outcome.days)}.
        </p>
        <p className="overlay-sub" role="status" data-testid="extension-done">
          {UI_TEXT.roomExtended(outcome.days)}
        </p>
        <dl className="account-facts" data-testid="extension-details">
          <dt>Purchase</dt>
          <dd>{outcome.days}-Day Room Extension</dd>
          <dt>Amount</dt>
          <dd>{outcome.amount} (one-time payment)</dd>
          {expiry && (
            <>
              <dt>New expiry</dt>
              <dd data-testid="new-expiry">{expiry.toLocaleString()}</dd>
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
            Back to Chat Room
          </a>
          <a className="button button-ghost" href="/dashboard">
            View My Rooms Dashboard
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
      <h1 className="overlay-title">Payment Successful</h1>
      <p className="overlay-sub" data-testid="welcome-text">
        Welcome to the {outcome.name} plan! Your subscription is now active.
      </p>
      {outcome.settleError && (
        <p className="overlay-sub form-error" role="alert" data-testid="payment-settle-error">
          {outcome.settleError}
        </p>
      )}
      <dl className="account-facts" data-testid="subscription-details">
        <dt>Plan</dt>
        <dd data-testid="paid-plan">{outcome.name}</dd>
        <dt>Amount</dt>
        <dd data-testid="paid-amount">{outcome.amount}/month</dd>
        <dt>Billing</dt>
        <dd>Billed monthly</dd>
      </dl>
      <ul className="check-list">
        {SUCCESS_INCLUDED[outcome.plan].map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <div className="button-row">
        <a className="button button-primary" href="/dashboard">
          Go to Dashboard
        </a>
        <a className="button button-ghost" href="/">
          Create New Room
        </a>
      </div>
      <p className="payment-small">A receipt has been sent to {outcome.email}.</p>
      {outcome.subscriptionId && (
        <p className="payment-small" data-testid="subscription-id">
          Subscription ID: {outcome.subscriptionId.slice(0, 20)}...
        </p>
      )}
    </Card>
  );
}
