/**
 * The dashboard's renewal banner (docs/product/payments.md PAY6): billing's renewal
 * status (GET subscription-status: urgency, message, button label). Reminder is blue and can be minimized or
 * dismissed; warning orange; urgent and expired red. Renewing is billing's renew-subscription: a subscription Stripe
 * still holds (active or past due) is managed in Stripe's billing portal, otherwise a new Checkout for the plan; an
 * account whose expired subscription left it on free chooses a plan on /upgrade.
 */
import { useEffect, useState } from 'react';
import type { SubscriptionStatusAnswer } from '@ephemera/proto';
import { paymentsApi } from '../lib/paymentsApi.ts';
import { useT } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';
import './payments.css';

const TONE = {
  reminder: 'notice-info',
  warning: 'notice-warning',
  urgent: 'notice-danger',
  expired: 'notice-danger',
  none: '',
} as const;

export function DashboardRenewal({ token, email }: { token: string; email: string }) {
  const t = useT();
  const [status, setStatus] = useState<SubscriptionStatusAnswer | null>(null);
  const [minimized, setMinimized] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void paymentsApi.subscriptionStatus(token, email).then((r) => {
      if (live && r.ok) setStatus(r.data);
    });
    return () => {
      live = false;
    };
  }, [token, email]);

  const renewal = status?.renewal;
  if (!status || !renewal?.needsRenewal || renewal.renewalUrgency === 'none' || dismissed) return null;
  const reminder = renewal.renewalUrgency === 'reminder';

  const renew = async () => {
    // An expired subscription the expiry already put on free (docs/product/payments.md PAY12): a plan is chosen anew.
    if (status.subscriptionTier === 'free') {
      window.location.assign('/upgrade');
      return;
    }
    setBusy(true);
    setError(null);
    const r = await paymentsApi.renew(token, status.subscriptionTier, '/dashboard');
    if (r.ok && r.data.url) {
      window.location.assign(r.data.url);
      return;
    }
    setBusy(false);
    setError(t('account.renewal.failed'));
  };

  if (reminder && minimized) {
    return (
      <div className="account-actions">
        <button
          type="button"
          className="button button-ghost button-sm"
          onClick={() => setMinimized(false)}
          data-testid="renewal-expand"
        >
          {t('account.renewal.reminder')}
        </button>
      </div>
    );
  }
  return (
    <section
      className={`notice ${TONE[renewal.renewalUrgency]} renewal-banner`}
      aria-label={t('account.renewal.label')}
      data-testid="renewal-banner"
      data-urgency={renewal.renewalUrgency}
    >
      <span>{errorText(null, renewal.message ?? '')}</span>
      <span className="account-actions">
        <button
          type="button"
          className="button button-primary button-sm"
          disabled={busy}
          onClick={() => void renew()}
          data-testid="renew-button"
        >
          {errorText(null, renewal.buttonLabel)}
        </button>
        {reminder && (
          <button type="button" className="button button-ghost button-sm" onClick={() => setMinimized(true)}>
            {t('account.renewal.minimize')}
          </button>
        )}
        {reminder && (
          <button type="button" className="button button-ghost button-sm" onClick={() => setDismissed(true)}>
            {t('account.renewal.dismiss')}
          </button>
        )}
      </span>
      {error && (
        <span className="account-error" role="alert">
          {error}
        </span>
      )}
    </section>
  );
}
