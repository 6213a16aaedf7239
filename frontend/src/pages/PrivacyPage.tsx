/**
 * /privacy: what this service stores, where, for how long, and how rooms are encrypted and destroyed (docs/crypto.md,
 * docs/architecture.md), with its two promises (docs/product/accounts.md A14): personal data is removed within 30 days of
 * account deletion; the service is not for children under 13. Every sentence here must stay true of the code.
 */
import { AppLink } from '../components/AppLink.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';
import { Trans } from '../i18n/Trans.tsx';
import { StaticPage, StaticSection } from './StaticPage.tsx';

const contactLink = <AppLink href="/contact" className="text-link" />;

const TECHNICAL: MessageId[] = [
  'public.privacy.technical.rateLimits',
  'public.privacy.technical.logs',
  'public.privacy.technical.previews',
  'public.privacy.technical.calls',
  'public.privacy.technical.browser',
];

export function PrivacyPage() {
  const t = useT();
  return (
    <StaticPage
      title={t('public.privacy.title')}
      description={t('public.privacy.description')}
      heading={t('public.privacy.title')}
      lead={t('public.privacy.lead')}
      testId="privacy-page"
    >
      <StaticSection id="summary" title={t('public.privacy.summary.title')}>
        <ul>
          <li>{t('public.privacy.summary.noAccount')}</li>
          <li>{t('public.privacy.summary.encrypted')}</li>
          <li>
            <strong data-testid="privacy-deletion">{t('public.privacy.deletionPromise')}</strong>
          </li>
          <li>
            <strong data-testid="privacy-children">{t('public.privacy.childrenPromise')}</strong>
          </li>
          <li>{t('public.privacy.summary.noAds')}</li>
        </ul>
      </StaticSection>

      <StaticSection id="rooms" title={t('public.privacy.rooms.title')}>
        <p>{t('public.privacy.rooms.p1')}</p>
        <p>{t('public.privacy.rooms.p2')}</p>
        <h3>{t('public.privacy.rooms.destroyedTitle')}</h3>
        <p>{t('public.privacy.rooms.p3')}</p>
        <p>{t('public.privacy.rooms.p4')}</p>
      </StaticSection>

      <StaticSection id="accounts" title={t('public.privacy.accounts.title')}>
        <p>{t('public.privacy.accounts.p1')}</p>
        <p>
          <Trans id="public.privacy.accounts.p2" components={{ 0: <strong /> }} />
        </p>
      </StaticSection>

      <StaticSection id="payments" title={t('public.privacy.payments.title')}>
        <p>{t('public.privacy.payments.p1')}</p>
      </StaticSection>

      <StaticSection id="contact-messages" title={t('public.privacy.contact.title')}>
        <p>
          <Trans id="public.privacy.contact.p1" components={{ 0: contactLink }} />
        </p>
      </StaticSection>

      <StaticSection id="technical" title={t('public.privacy.technical.title')}>
        <ul>
          {TECHNICAL.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
      </StaticSection>

      <StaticSection id="children" title={t('public.privacy.children.title')}>
        <p>
          <Trans id="public.privacy.children.p1" components={{ 0: contactLink }} />
        </p>
      </StaticSection>

      <StaticSection id="changes" title={t('public.privacy.changes.title')}>
        <p>
          <Trans id="public.privacy.changes.p1" components={{ 0: contactLink }} />
        </p>
      </StaticSection>
    </StaticPage>
  );
}
