/**
 * /contact (docs/product/accounts.md A13): name, e-mail, subject (category) and message,
 * all required, and a newsletter box that is never sent. States: editing, sending ('Sending...'), sent
 * ('Message Sent!' with 'Send Another Message', which resets the form). A failure keeps what was typed and says
 * 'Failed to send message. Please try again.' (docs/product/accounts.md A13). The rules and the call: lib/contact.ts.
 */
import { useRef, useState, type FormEvent } from 'react';
import {
  CONTACT_CATEGORIES,
  CONTACT_CATEGORY_LABELS,
  CONTACT_LIMITS,
  type ContactCategory,
} from '@ephemera/proto/client';
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

type Phase = 'editing' | 'sending' | 'sent';
const FIELDS: ContactField[] = ['name', 'email', 'category', 'message'];

export function ContactPage() {
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
        {errors[f]}
      </span>
    );

  return (
    <StaticPage
      title="Contact Us"
      description="Contact the Ephemera team: questions, technical support, billing, feature requests, bug reports and partnerships. We read every message."
      heading="Contact us"
      lead={
        <>
          Questions, problems, ideas or partnerships: write to us and we will answer by e-mail. Many answers are already
          on the{' '}
          <AppLink href="/features" className="text-link">
            features page
          </AppLink>
          .
        </>
      }
      testId="contact-page"
      contactLine={false}
    >
      <section className="contact-card" aria-label="Contact form">
        {phase === 'sent' ? (
          <div className="contact-sent" data-testid="contact-sent" role="status">
            <h2 tabIndex={-1} ref={sentRef}>
              Message Sent!
            </h2>
            <p>Thank you for writing. We will reply to your e-mail address as soon as we can.</p>
            <div className="static-cta">
              <button type="button" className="button button-primary" onClick={again} data-testid="contact-again">
                Send Another Message
              </button>
              <AppLink href="/" className="button button-ghost">
                Back to home
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
                  {failure.message}
                  {failure.detail && (
                    <>
                      <br />
                      {failure.detail}
                    </>
                  )}
                </span>
              </div>
            )}
            <div className="contact-row">
              <div className="field">
                <label htmlFor="contact-name">Name</label>
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
                <label htmlFor="contact-email">E-mail</label>
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
              <label htmlFor="contact-category">Subject</label>
              <select
                id="contact-category"
                name="category"
                required
                value={form.category}
                onChange={(e) => update('category', e.target.value as ContactCategory | '')}
                data-testid="contact-category"
                {...invalid('category')}
              >
                <option value="">Choose a subject</option>
                {CONTACT_CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {CONTACT_CATEGORY_LABELS[c]}
                  </option>
                ))}
              </select>
              {errorOf('category')}
            </div>
            <div className="field">
              <div className="field-head">
                <label htmlFor="contact-message">Message</label>
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
                Keep me posted about new features
                <small>Optional. We have no newsletter yet, so this choice is not sent or stored.</small>
              </span>
            </label>
            <div>
              <button
                type="submit"
                className="button button-primary button-lg"
                disabled={phase === 'sending'}
                data-testid="contact-submit"
              >
                {phase === 'sending' ? 'Sending...' : 'Send Message'}
              </button>
            </div>
          </form>
        )}
      </section>
    </StaticPage>
  );
}
