/**
 * /payment/cancelled, where Stripe Checkout's cancel link returns (docs/product/payments.md
 * PAY9): nothing was charged, the free plan goes on. 'View plan comparison' shows only a placeholder
 * notice.
 */
import { useEffect, useState } from 'react';
import { CenteredScreen } from '../components/StatusScreens.tsx';
import { AlertIcon } from '../components/Icons.tsx';
import './accounts.css';
import './payments.css';

export function PaymentCancelledPage() {
  const [comparison, setComparison] = useState(false);
  useEffect(() => {
    document.title = 'Payment Cancelled · Ephemera';
  }, []);
  return (
    <main className="payment-card-wrap" data-testid="payment-cancelled-page">
      <CenteredScreen testId="payment-cancelled">
        <div className="status-icon tone-danger" aria-hidden="true">
          <AlertIcon size={26} />
        </div>
        <h1 className="overlay-title">Payment Cancelled</h1>
        <p className="overlay-sub" data-testid="cancelled-text">
          Your payment was cancelled. No charges were made to your account.
        </p>
        <p className="overlay-sub">
          You can continue using Ephemera on the free plan, or upgrade whenever you are ready.
        </p>
        <div className="button-row">
          <a className="button button-ghost" href="/">
            Continue with Free Plan
          </a>
          <a className="button button-primary" href="/upgrade">
            Try Again
          </a>
        </div>
        <button type="button" className="link-button" onClick={() => setComparison(true)} data-testid="plan-comparison">
          View plan comparison
        </button>
        {comparison && (
          <p className="account-notice" role="status" data-testid="plan-comparison-notice">
            Plan comparison is coming soon.
          </p>
        )}
      </CenteredScreen>
    </main>
  );
}
