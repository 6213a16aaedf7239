import type { InlinePart } from '../lib/messageInline.ts';
import { mentionAttributes } from '../lib/messageInline.ts';

/** Inline parts as React elements: links open in a new tab without access to this page; mentions are marked. */
export function InlineText({ parts }: { parts: readonly InlinePart[] }) {
  return parts.map((p, i) =>
    p.kind === 'link' ? (
      <a key={i} href={p.href} target="_blank" rel="noopener noreferrer">
        {p.text}
      </a>
    ) : p.kind === 'mention' ? (
      <span key={i} {...mentionAttributes(p.self)}>
        {p.text}
      </span>
    ) : (
      <span key={i}>{p.text}</span>
    ),
  );
}
