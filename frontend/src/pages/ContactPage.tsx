/**
 * /contact (docs/product/accounts.md A13): name, e-mail, subject (category) and message,
 * all required, and a newsletter box that is never sent. States: editing, sending ('Sending...'), sent
 * ('Message Sent!' with 'Send Another Message', which resets the form). A failure keeps what was typed and says
 * 'Failed to send message. Please try again.' (docs/product/accounts.md A13). The rules and the call: lib/contact.ts.
 */
import { useRef, useState, type FormEvent } from 'react';
import { CONTACT_CATEGORIES, CONTACT_LIMITS, type ContactCategory } from '@ephemera/proto/client';
import { AppLink } from '../components/AppLink.tsx';
import {
  EMPTY_CONTACT_FORM,
  contactPayload,
  sendContactMessage,
  validateContact,
  type ContactErrors,
  type ContactField,
  type ContactForm,
} from '../lib/contact.ts';
import { StaticPage } from './StaticPage.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';
import { Trans } from '../i18n/Trans.tsx';
import { translateShared } from '../i18n/sharedTexts.ts';

type Phase = 'editing' | 'sending' | 'sent';
const FIELDS: ContactField[] = ['name', 'email', 'category', 'message'];
/** the subjects' names (proto's CONTACT_CATEGORY_LABELS in English) */
const CATEGORY_LABELS: { readonly [C in ContactCategory]: MessageId } = {
  general: 'public.contact.category.general',
  support: 'public.contact.category.support',
  billing: 'public.contact.category.billing',
  feature: 'public.contact.category.feature',
  bug: 'public.contact.category.bug',
  partnership: 'public.contact.category.partnership',
  other: 'public.contact.category.other',
};

export function ContactPage() {
  const t = useT();
  const [form, setForm] = useState<ContactForm>(EMPTY_CONTACT_FORM);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [phase, setPhase] = useState<Phase>('editing');
  const [failure, setFailure] = useState<{ message: string; detail: string | null } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const sentRef = useRef<HTMLHeadingElement>(null);

  const update = <K extends keyof ContactForm>(key: K, value: ContactForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (key in errors)
      setErrors((e) => {
        const next = { ...e };
        delete next[key as ContactField];
        return next;
      });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (phase !== 'editing') return; // a second click while sending sends nothing
    const found = validateContact(form);
    setErrors(found);
    setFailure(null);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setPhase('sending');
    const result = await sendContactMessage(contactPayload(form));
    if (result.ok) {
      setPhase('sent');
      requestAnimationFrame(() => sentRef.current?.focus());
    } else {
      setPhase('editing');
      setFailure({ message: result.message, detail: result.detail });
    }
  };

  const again = () => {
    setForm(EMPTY_CONTACT_FORM);
    setErrors({});
    setFailure(null);
    setPhase('editing');
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[name="name"]')?.focus());
  };

  const invalid = (f: ContactField) =>
    errors[f] ? { 'aria-invalid': true, 'aria-describedby': `contact-${f}-error` } : {};
  const errorOf = (f: ContactField) =>
    errors[f] && (
      <span id={`contact-${f}-error`} className="field-error" data-testid={`contact-${f}-error`}>
        {translateShared(errors[f])}
      </span>
    );

  return (
    <StaticPage
      title={t('public.contact.title')}
      description={t('public.contact.description')}
      heading={t('public.contact.heading')}
      lead={<Trans id="public.contact.lead" components={{ 0: <AppLink href="/features" className="text-link" /> }} />}
      testId="contact-page"
      contactLine={false}
    >
      <section className="contact-card" aria-label={t('public.contact.formLabel')}>
        {phase === 'sent' ? (
          <div className="contact-sent" data-testid="contact-sent" role="status">
            <h2 tabIndex={-1} ref={sentRef}>
              {t('public.contact.sent')}
            </h2>
            <p>{t('public.contact.thanks')}</p>
            <div className="static-cta">
              <button type="button" className="button button-primary" onClick={again} data-testid="contact-again">
                {t('public.contact.again')}
              </button>
              <AppLink href="/" className="button button-ghost">
                {t('common.status.backHome')}
              </AppLink>
            </div>
          </div>
        ) : (
          <form
            ref={formRef}
            className="contact-form"
            onSubmit={submit}
            noValidate
            data-testid="contact-form"
            aria-busy={phase === 'sending'}
          >
            {failure && (
              <div className="form-error" role="alert" data-testid="contact-failed">
                <span>
                  {translateShared(failure.message)}
                  {failure.detail && (
                    <>
                      <br />
                      {translateShared(failure.detail)}
                    </>
                  )}
                </span>
              </div>
            )}
            <div className="contact-row">
              <div className="field">
                <label htmlFor="contact-name">{t('public.contact.name')}</label>
                <input
                  id="contact-name"
                  name="name"
                  type="text"
                  autoComplete="name"
                  maxLength={CONTACT_LIMITS.nameMax}
                  required
                  value={form.name}
                  onChange={(e) => update('name', e.target.value)}
                  data-testid="contact-name"
                  {...invalid('name')}
                />
                {errorOf('name')}
              </div>
              <div className="field">
                <label htmlFor="contact-email">{t('public.contact.email')}</label>
                <input
                  id="contact-email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  maxLength={CONTACT_LIMITS.emailMax}
                  required
                  value={form.email}
                  onChange={(e) => update('email', e.target.value)}
                  data-testid="contact-email"
                  {...invalid('email')}
                />
                {errorOf('email')}
              </div>
            </div>
            <div className="field">
              <label htmlFor="contact-category">{t('public.contact.subject')}</label>
              <select
                id="contact-category"
                name="category"
                required
                value={form.category}
                onChange={(e) => update('category', e.target.value as ContactCategory | '')}
                data-testid="contact-category"
                {...invalid('category')}
              >
                <option value="">{t('public.contact.chooseSubject')}</option>
                {CONTACT_CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {t(CATEGORY_LABELS[c])}
                  </option>
                ))}
              </select>
              {errorOf('category')}
            </div>
            <div className="field">
              <div className="field-head">
                <label htmlFor="contact-message">{t('public.contact.message')}</label>
                <span className="counter" aria-hidden="true">
                  {form.message.length}/{CONTACT_LIMITS.messageMax}
                </span>
              </div>
              <textarea
                id="contact-message"
                name="message"
                maxLength={CONTACT_LIMITS.messageMax}
                required
                rows={7}
                value={form.message}
                onChange={(e) => update('message', e.target.value)}
                data-testid="contact-message"
                {...invalid('message')}
              />
              {errorOf('message')}
            </div>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={form.newsletter}
                onChange={(e) => update('newsletter', e.target.checked)}
                data-testid="contact-newsletter"
              />
              <span>
                {t('public.contact.newsletter')}
                <small>{t('public.contact.newsletterNote')}</small>
              </span>
            </label>
            <div>
              <button
                type="submit"
                className="button button-primary button-lg"
                disabled={phase === 'sending'}
                data-testid="contact-submit"
              >
                {phase === 'sending' ? t('public.contact.sending') : t('public.contact.send')}
              </button>
            </div>
          </form>
        )}
      </section>
    </StaticPage>
  );
}
