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

const FEATURES: Feature[] = [
  {
    title: 'Temporary',
    text: 'Rooms clean up after themselves: free rooms vanish after 24 hours with every message and file.',
    icon: <ClockIcon size={22} />,
  },
  {
    title: 'Video Calls',
    text: 'Jump from text to a face-to-face call with screen sharing on Pro and Business rooms.',
    icon: <VideoIcon size={22} />,
  },
  {
    title: 'Secure',
    text: 'Encrypted in transit and at rest, optional room passwords, and nothing left behind.',
    icon: <ShieldIcon size={22} />,
  },
  {
    title: 'File Sharing',
    text: 'Drop in images, videos, PDFs and documents for everyone in the room to see.',
    icon: <FileIcon size={22} />,
  },
];

const TIERS = [
  { name: 'Free', life: '24 hours', detail: 'Up to 5 people · 10 MB files' },
  { name: 'Pro', life: 'Up to 7 days', detail: 'Up to 25 people · calls · 100 MB files' },
  { name: 'Business', life: 'Permanent', detail: 'Unlimited people · custom branding' },
];

export function Landing() {
  useEffect(() => {
    document.title = 'Ephemera · Instant temporary chat rooms';
  }, []);
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
            <span className="eyebrow">No sign-up · Free for 24 hours</span>
            <h1>
              Group chat that <span className="gradient-text">disappears</span> when you're done
            </h1>
            <p className="lead">
              Create a room in seconds, share the link, and talk. No accounts, no setup, no clutter: your room cleans up
              after itself.
            </p>
            {saved && (
              <p className="resume">
                Welcome back, {saved.username}.{' '}
                <AppLink href={roomPath(saved.roomName)} data-testid="resume-room">
                  Continue in {saved.roomName} →
                </AppLink>
              </p>
            )}
          </div>
          <div className="hero-card" onFocus={prefetchRoomPage} onPointerEnter={prefetchRoomPage}>
            <RoomNameForm />
            <ul className="hero-points">
              <li>Share the link, anyone can join</li>
              <li>Optional password protection</li>
              <li>Everything deleted on expiry</li>
            </ul>
          </div>
        </section>

        <section className="section" aria-labelledby="features-title">
          <h2 id="features-title" className="section-title">
            Everything a quick conversation needs
          </h2>
          <FeatureGrid features={FEATURES} testId="feature-card" />
        </section>

        <section className="section" aria-labelledby="lifetime-title">
          <h2 id="lifetime-title" className="section-title">
            How long do rooms last?
          </h2>
          <p className="section-lead" data-testid="lifetime-text">
            Free rooms last 24 hours, Pro rooms last up to 7 days, and Business rooms are permanent.
          </p>
          <div className="tier-grid">
            {TIERS.map((t) => (
              <div key={t.name} className={`tier-card tier-${t.name.toLowerCase()}`}>
                <span className="tier-name">{t.name}</span>
                <strong className="tier-life">{t.life}</strong>
                <span className="tier-detail">{t.detail}</span>
              </div>
            ))}
          </div>
          <p className="center">
            <AppLink href="/upgrade" className="text-link">
              Compare plans →
            </AppLink>
          </p>
        </section>

        <section className="section section-narrow" aria-labelledby="faq-title">
          <h2 id="faq-title" className="section-title">
            Frequently asked questions
          </h2>
          <Faq />
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
