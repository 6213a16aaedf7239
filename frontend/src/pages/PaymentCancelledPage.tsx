/**
 * /payment/cancelled, where Stripe Checkout's cancel link returns (docs/product/payments.md
 * PAY9): nothing was charged, the free plan goes on. 'View plan comparison' shows only a placeholder
 * notice.
 */
import { useEffect, useState } from 'react';
import { CenteredScreen } from '../components/StatusScreens.tsx';
import { AlertIcon } from '../components/Icons.tsx';
import { t as translate, useCatalog, useT } from '../i18n/i18n.ts';
import './accounts.css';
import './payments.css';

export function PaymentCancelledPage() {
  useCatalog('account');
  const t = useT();
  const [comparison, setComparison] = useState(false);
  useEffect(() => {
    document.title = translate('account.cancelled.documentTitle');
  }, []);
  return (
    <main className="payment-card-wrap" data-testid="payment-cancelled-page">
      <CenteredScreen testId="payment-cancelled">
        <div className="status-icon tone-danger" aria-hidden="true">
          <AlertIcon size={26} />
        </div>
        <h1 className="overlay-title">{t('account.cancelled.title')}</h1>
        <p className="overlay-sub" data-testid="cancelled-text">
          {t('account.cancelled.text')}
        </p>
        <p className="overlay-sub">{t('account.cancelled.continueText')}</p>
        <div className="button-row">
          <a className="button button-ghost" href="/">
            {t('account.cancelled.continueFree')}
          </a>
          <a className="button button-primary" href="/upgrade">
            {t('account.cancelled.tryAgain')}
          </a>
        </div>
        <button type="button" className="link-button" onClick={() => setComparison(true)} data-testid="plan-comparison">
          {t('account.cancelled.viewComparison')}
        </button>
        {comparison && (
          <p className="account-notice" role="status" data-testid="plan-comparison-notice">
            {t('account.cancelled.comparisonSoon')}
          </p>
        )}
      </CenteredScreen>
    </main>
  );
}
