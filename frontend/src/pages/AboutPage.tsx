/** /about: what Ephemera is, why rooms are temporary, and how it works (a static page, docs/product/accounts.md A14). */
import { AppLink } from '../components/AppLink.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';
import { StaticPage, StaticSection } from './StaticPage.tsx';

/** the three steps: their title and their sentence */
const STEPS: [MessageId, MessageId][] = [
  ['public.about.step1.title', 'public.about.step1.text'],
  ['public.about.step2.title', 'public.about.step2.text'],
  ['public.about.step3.title', 'public.about.step3.text'],
];

/** what we care about: the principle and its explanation */
const PRINCIPLES: [MessageId, MessageId][] = [
  ['public.about.principle.noSignup.title', 'public.about.principle.noSignup.text'],
  ['public.about.principle.deletion.title', 'public.about.principle.deletion.text'],
  ['public.about.principle.fast.title', 'public.about.principle.fast.text'],
  ['public.about.principle.pricing.title', 'public.about.principle.pricing.text'],
];

export function AboutPage() {
  const t = useT();
  return (
    <StaticPage
      title={t('public.about.title')}
      description={t('public.about.description')}
      heading={t('public.about.heading')}
      lead={t('public.about.lead')}
      testId="about-page"
    >
      <StaticSection id="why" title={t('public.about.why.title')}>
        <p>{t('public.about.why.p1')}</p>
        <p>{t('public.about.why.p2')}</p>
      </StaticSection>

      <StaticSection id="how" title={t('public.about.how.title')}>
        <ol className="steps">
          {STEPS.map(([title, text]) => (
            <li key={title}>
              <strong>{t(title)}</strong>
              {t(text)}
            </li>
          ))}
        </ol>
      </StaticSection>

      <StaticSection id="principles" title={t('public.about.principles.title')}>
        <ul>
          {PRINCIPLES.map(([title, text]) => (
            <li key={title}>
              <strong>{t(title)}</strong> {t(text)}
            </li>
          ))}
        </ul>
      </StaticSection>

      <div className="static-cta">
        <AppLink href="/" className="button button-primary button-lg">
          {t('public.about.cta.create')}
        </AppLink>
        <AppLink href="/features" className="button button-ghost button-lg">
          {t('public.about.cta.features')}
        </AppLink>
      </div>
    </StaticPage>
  );
}
