import { useEffect } from 'react';
import { RoomNameForm } from '../components/RoomNameForm.tsx';
import { Faq } from '../components/Faq.tsx';
import { SiteNav } from '../components/SiteNav.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { AppLink } from '../components/AppLink.tsx';
import { FeatureGrid, type Feature } from '../components/FeatureGrid.tsx';
import { ClockIcon, FileIcon, ShieldIcon, VideoIcon } from '../components/Icons.tsx';
import { readAuth } from '../lib/storage.ts';
import { roomPath } from '../lib/routes.ts';
import { useT, type MessageId } from '../i18n/i18n.ts';
import { Trans } from '../i18n/Trans.tsx';

const FEATURES: Feature[] = [
  {
    title: 'public.landing.feature.temporary.title',
    text: 'public.landing.feature.temporary.text',
    icon: <ClockIcon size={22} />,
  },
  {
    title: 'public.landing.feature.calls.title',
    text: 'public.landing.feature.calls.text',
    icon: <VideoIcon size={22} />,
  },
  {
    title: 'public.landing.feature.secure.title',
    text: 'public.landing.feature.secure.text',
    icon: <ShieldIcon size={22} />,
  },
  {
    title: 'public.landing.feature.files.title',
    text: 'public.landing.feature.files.text',
    icon: <FileIcon size={22} />,
  },
];

/** The plans' lifetimes: the class names the plan (not translated), the texts come from the catalog */
const TIERS: { plan: string; name: MessageId; life: MessageId; detail: MessageId }[] = [
  {
    plan: 'free',
    name: 'public.landing.tier.free.name',
    life: 'public.landing.tier.free.life',
    detail: 'public.landing.tier.free.detail',
  },
  {
    plan: 'pro',
    name: 'public.landing.tier.pro.name',
    life: 'public.landing.tier.pro.life',
    detail: 'public.landing.tier.pro.detail',
  },
  {
    plan: 'business',
    name: 'public.landing.tier.business.name',
    life: 'public.landing.tier.business.life',
    detail: 'public.landing.tier.business.detail',
  },
];

export function Landing() {
  const t = useT();
  const title = t('public.landing.documentTitle');
  useEffect(() => {
    document.title = title;
  }, [title]);
  // The room page is its own chunk (App.tsx): fetched once the visitor shows intent (pointer over, or focus in, the
  // room form), so Create opens at once, while a visitor who only reads never pays for it on a slow phone.
  const prefetchRoomPage = () => {
    void import('./RoomPage.tsx').catch(() => {});
  };
  const saved = readAuth();

  return (
    <div className="landing">
      <SiteNav />
      <main>
        <section className="hero">
          <div className="hero-copy">
            <span className="eyebrow">{t('public.landing.eyebrow')}</span>
            <h1>
              <Trans id="public.landing.headline" components={{ 0: <span className="gradient-text" /> }} />
            </h1>
            <p className="lead">{t('public.landing.lead')}</p>
            {saved && (
              <p className="resume">
                {t('public.landing.welcomeBack', { username: saved.username })}{' '}
                <AppLink href={roomPath(saved.roomName)} data-testid="resume-room">
                  {t('public.landing.continueIn', { roomName: saved.roomName })}
                </AppLink>
              </p>
            )}
          </div>
          <div className="hero-card" onFocus={prefetchRoomPage} onPointerEnter={prefetchRoomPage}>
            <RoomNameForm />
            <ul className="hero-points">
              <li>{t('public.landing.point.share')}</li>
              <li>{t('public.landing.point.password')}</li>
              <li>{t('public.landing.point.expiry')}</li>
            </ul>
          </div>
        </section>

        <section className="section" aria-labelledby="features-title">
          <h2 id="features-title" className="section-title">
            {t('public.landing.features.title')}
          </h2>
          <FeatureGrid features={FEATURES} testId="feature-card" />
        </section>

        <section className="section" aria-labelledby="lifetime-title">
          <h2 id="lifetime-title" className="section-title">
            {t('public.landing.lifetime.title')}
          </h2>
          <p className="section-lead" data-testid="lifetime-text">
            {t('public.landing.lifetime.text')}
          </p>
          <div className="tier-grid">
            {TIERS.map((tier) => (
              <div key={tier.plan} className={`tier-card tier-${tier.plan}`}>
                <span className="tier-name">{t(tier.name)}</span>
                <strong className="tier-life">{t(tier.life)}</strong>
                <span className="tier-detail">{t(tier.detail)}</span>
              </div>
            ))}
          </div>
          <p className="center">
            <AppLink href="/upgrade" className="text-link">
              {t('public.landing.comparePlans')}
            </AppLink>
          </p>
        </section>

        <section className="section section-narrow" aria-labelledby="faq-title">
          <h2 id="faq-title" className="section-title">
            {t('public.landing.faq.title')}
          </h2>
          <Faq />
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
