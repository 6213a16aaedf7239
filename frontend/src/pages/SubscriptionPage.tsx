/**
 * /subscription (docs/product/payments.md PAY7): the account's plan as billing
 * records it (GET subscription-status: tier, payment status, period end, cancel-at-period-end), what the plan
 * includes, the Usage This Month placeholder, upgrades (a dialog, then Stripe Checkout) and Manage Billing (Stripe's
 * billing portal). A failed lookup shows the error and treats the account as free and active.
 */
import { useEffect, useState } from 'react';
import type { PaidPlan, Tier } from '@ephemera/proto/client';
import type { SubscriptionStatusAnswer } from '@ephemera/proto';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { AppLink } from '../components/AppLink.tsx';
import { UpgradeDialog } from '../components/overlays/UpgradeDialog.tsx';
import { ArrowLeftIcon } from '../components/Icons.tsx';
import { LoadingScreen } from '../components/StatusScreens.tsx';
import { readAccount } from '../lib/account.ts';
import { readAuth } from '../lib/storage.ts';
import { roomPath } from '../lib/routes.ts';
import { PAYMENT_TEXT } from '../lib/paymentTexts.ts';
import { FREE_STATUS, statusLabel } from '../lib/paymentPlans.ts';
import { paymentsApi } from '../lib/paymentsApi.ts';
import { startCheckout } from '../lib/payments.ts';
import { t as translate, useCatalog, useT } from '../i18n/i18n.ts';
import { formatDate } from '../i18n/format.ts';
import { errorText } from '../i18n/errorText.ts';
import { includedFeatures, monthlyPrice, tierName, usagePlaceholder } from '../lib/planCopy.ts';
import './accounts.css';
import './payments.css';

const UPGRADES: Record<Tier, PaidPlan[]> = { free: ['pro', 'business'], pro: ['business'], business: [] };

export function SubscriptionPage() {
  useCatalog('account');
  const t = useT();
  const account = readAccount();
  const [status, setStatus] = useState<SubscriptionStatusAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<PaidPlan | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = translate('account.subscription.documentTitle');
    let live = true;
    void paymentsApi.subscriptionStatus(account?.token ?? null, account?.user.email ?? null).then((r) => {
      if (!live) return;
      if (r.ok) {
        setStatus(r.data);
        return;
      }
      setError(translate('account.subscription.failed'));
      setStatus(FREE_STATUS);
    });
    return () => {
      live = false;
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  if (!status) return <LoadingScreen text={t('account.subscription.loading')} />;
  const tier = status.subscriptionTier;
  const periodEnd = tier !== 'free' && status.currentPeriodEnd ? new Date(status.currentPeriodEnd) : null;
  const lastRoom = readAuth()?.roomName;

  const upgrade = async () => {
    setBusy(true);
    setDialogError(null);
    const r = await startCheckout(dialog);
    if (r.kind === 'error') {
      setBusy(false);
      setDialogError(
        r.message === PAYMENT_TEXT.selectPlan
          ? t('account.payment.selectPlan')
          : t('account.payment.error', { message: errorText(null, r.message) }),
      );
    }
  };
  const manageBilling = async () => {
    if (!account?.user.email) {
      setError(t('account.subscription.emailMissing'));
      return;
    }
    setBusy(true);
    setError(null);
    const r = await paymentsApi.portal(account.token, account.user.email);
    if (!r.ok || !r.data.url) {
      setBusy(false);
      setError(t('account.subscription.portalFailed'));
      return;
    }
    window.location.assign(r.data.url);
  };

  return (
    <div className="landing">
      <header className="sub-header">
        <AppLink href="/" className="icon-button" aria-label={t('account.subscription.backHome')}>
          <ArrowLeftIcon size={20} />
        </AppLink>
        <h1>{t('account.subscription.title')}</h1>
      </header>
      <main className="account-page" data-testid="subscription-page">
        {error && (
          <p className="account-error" role="alert" data-testid="subscription-error">
            {error}
          </p>
        )}
        {!account && (
          <p>
            <AppLink href="/login?redirect=/subscription" className="text-link">
              {t('account.subscription.signIn')}
            </AppLink>
          </p>
        )}
        <section className="account-card" aria-labelledby="current-plan-title" data-testid="current-plan">
          <h2 id="current-plan-title">{t('account.subscription.currentPlan')}</h2>
          <p className="plan-status" data-testid="current-plan-status">
            <span data-testid="current-plan-tier">{tierName(tier)}</span> -{' '}
            <span data-testid="current-plan-state">{statusLabel(status.paymentStatus)}</span>
          </p>
          <p className="plan-price" data-testid="current-plan-price">
            {monthlyPrice(status.amountCents)}
          </p>
          {periodEnd && (
            <p data-testid="next-billing">
              {t('account.subscription.nextBilling', { date: formatDate(periodEnd, {}) })}
            </p>
          )}
          {status.paymentStatus === 'past_due' && (
            <p className="notice notice-danger" role="alert" data-testid="past-due-warning">
              {t('account.subscription.pastDue')}
            </p>
          )}
          {status.cancelAtPeriodEnd && (
            <p className="notice notice-warning" data-testid="cancel-notice">
              {t('account.subscription.cancelNotice')}
            </p>
          )}
        </section>
        <section className="account-card" aria-labelledby="included-title">
          <h2 id="included-title">{t('account.subscription.included')}</h2>
          <ul className="check-list" data-testid="included-list">
            {includedFeatures(tier).map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </section>
        <section className="account-card" aria-labelledby="usage-title">
          <h2 id="usage-title">{t('account.subscription.usage')}</h2>
          <dl className="usage-grid" data-testid="usage">
            {usagePlaceholder(tier).map((u) => (
              <div key={u.label}>
                <dt>{u.label}</dt>
                <dd>{u.value}</dd>
                {u.detail && <dd className="payment-small">{u.detail}</dd>}
              </div>
            ))}
          </dl>
          <p className="payment-small" style={{ marginTop: 10 }}>
            {t('account.subscription.usageExample')}
          </p>
        </section>
        <div className="account-actions" data-testid="subscription-actions">
          {UPGRADES[tier].map((p) => (
            <button
              key={p}
              type="button"
              className="button button-primary"
              onClick={() => {
                setDialog(p);
                setDialogError(null);
              }}
              data-testid={`upgrade-to-${p}`}
            >
              {t('account.payment.upgradeTo', { plan: tierName(p) })}
            </button>
          ))}
          {tier !== 'free' && (
            <button
              type="button"
              className="button button-ghost"
              disabled={busy}
              onClick={() => void manageBilling()}
              data-testid="manage-billing"
            >
              {t('account.subscription.manageBilling')}
            </button>
          )}
          <a className="button button-ghost" href={lastRoom ? roomPath(lastRoom) : '/'}>
            {t('account.subscription.backToChat')}
          </a>
        </div>
      </main>
      {dialog && (
        <UpgradeDialog
          plan={dialog}
          currentTier={tier}
          busy={busy}
          error={dialogError}
          onContinue={() => void upgrade()}
          onClose={() => setDialog(null)}
        />
      )}
      <SiteFooter />
    </div>
  );
}
