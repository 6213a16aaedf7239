import { useState } from 'react';
import { ChevronDownIcon } from './Icons.tsx';

const FAQ: { q: string; a: string }[] = [
  {
    q: 'How long does a chat room last?',
    a: 'A free room is deleted 24 hours after it is created, together with every message and file in it. On Pro a room lives for up to 7 days, and on Business it never expires. A free room can be extended or upgraded before it runs out.',
  },
  {
    q: 'Do I need to register or create an account?',
    a: 'No. Pick a room name, choose a username and start chatting; guests never need an account. Registering is optional and lets you keep ownership of your rooms and reach them from any device through your dashboard.',
  },
  {
    q: 'How secure are my conversations?',
    a: 'Everything travels over encrypted connections, messages are stored encrypted, and a room and all of its data are deleted when it expires. You can add a password so only people who know it can join.',
  },
  {
    q: 'Can I make video calls?',
    a: 'Yes. Pro and Business rooms include one-to-one audio and video calls with screen sharing, right in the browser; nothing to install.',
  },
  {
    q: "What's the difference between free and premium?",
    a: 'Free: one room at a time, 24 hours, up to 5 people and 10 MB files. Pro: 10 rooms, up to 7 days, 25 people, 100 MB files, calls and more themes. Business: unlimited rooms that never expire, unlimited people, 500 MB files and custom branding.',
  },
  {
    q: 'Can I share files?',
    a: 'Yes. Share images, videos, PDFs and office documents with everyone in the room: up to 10 MB on Free, 100 MB on Pro and 500 MB on Business. Files are removed together with the room.',
  },
];

export function Faq() {
  const [open, setOpen] = useState<number | null>(0);
  return (
    <div className="faq" data-testid="faq">
      {FAQ.map((item, i) => {
        const isOpen = open === i;
        return (
          <div key={item.q} className={`faq-item${isOpen ? ' open' : ''}`}>
            <h3 className="faq-question">
              <button
                type="button"
                aria-expanded={isOpen}
                aria-controls={`faq-${i}`}
                id={`faq-q-${i}`}
                onClick={() => setOpen(isOpen ? null : i)}
                data-testid="faq-question"
              >
                <span>{item.q}</span>
                <ChevronDownIcon className="faq-chevron" size={18} />
              </button>
            </h3>
            <div id={`faq-${i}`} role="region" aria-labelledby={`faq-q-${i}`} className="faq-answer" hidden={!isOpen}>
              <p>{item.a}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}
