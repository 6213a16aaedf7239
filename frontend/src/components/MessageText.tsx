import { useMemo } from 'react';
import { splitLinks } from '../lib/links.ts';

/** Message text as React text; http, https and mailto addresses become links. */
export function MessageText({ content }: { content: string }) {
  const parts = useMemo(() => splitLinks(content), [content]);
  return (
    <span className="message-text" data-testid="message-content">
      {parts.map((p, i) =>
        p.kind === 'link' ? (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer">
            {p.text}
          </a>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </span>
  );
}
