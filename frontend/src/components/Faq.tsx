import { useState } from 'react';
import { ChevronDownIcon } from './Icons.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';

/** The questions in the order shown: the question's key, the answer's key */
const FAQ: [MessageId, MessageId][] = [
  ['public.faq.lifetime.q', 'public.faq.lifetime.a'],
  ['public.faq.account.q', 'public.faq.account.a'],
  ['public.faq.security.q', 'public.faq.security.a'],
  ['public.faq.calls.q', 'public.faq.calls.a'],
  ['public.faq.plans.q', 'public.faq.plans.a'],
  ['public.faq.files.q', 'public.faq.files.a'],
];

export function Faq() {
  const t = useT();
  const [open, setOpen] = useState<number | null>(0);
  return (
    <div className="faq" data-testid="faq">
      {FAQ.map(([question, answer], i) => {
        const isOpen = open === i;
        return (
          <div key={question} className={`faq-item${isOpen ? ' open' : ''}`}>
            <h3 className="faq-question">
              <button
                type="button"
                aria-expanded={isOpen}
                aria-controls={`faq-${i}`}
                id={`faq-q-${i}`}
                onClick={() => setOpen(isOpen ? null : i)}
                data-testid="faq-question"
              >
                <span>{t(question)}</span>
                <ChevronDownIcon className="faq-chevron" size={18} />
              </button>
            </h3>
            <div id={`faq-${i}`} role="region" aria-labelledby={`faq-q-${i}`} className="faq-answer" hidden={!isOpen}>
              <p>{t(answer)}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}
