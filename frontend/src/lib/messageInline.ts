/**
 * The inline pieces of message text, the same with or without formatting: addresses that become links (links.ts,
 * docs/product/messages.md M17) and mentions of room members (mentions.ts).
 */
import { splitLinks, type TextPart } from './links.ts';
import { findMentions } from './mentions.ts';

/** The members a message can mention, and the reader's own name (a mention of the reader stands out more). */
export interface MentionContext {
  names: readonly string[];
  self: string | null;
}

export type InlinePart = TextPart | { kind: 'mention'; text: string; self: boolean };

/** Split text into plain, link and mention parts; joining every part's text gives the input back. */
export function inlineParts(text: string, mentions: MentionContext | null): InlinePart[] {
  const parts: InlinePart[] = [];
  const self = mentions?.self?.trim().toLocaleLowerCase() ?? null;
  for (const part of splitLinks(text)) {
    if (part.kind === 'link' || !mentions) {
      parts.push(part);
      continue;
    }
    let last = 0;
    for (const m of findMentions(part.text, mentions.names)) {
      if (m.start > last) parts.push({ kind: 'text', text: part.text.slice(last, m.start) });
      const mentionText = part.text.slice(m.start, m.end);
      parts.push({ kind: 'mention', text: mentionText, self: m.username.trim().toLocaleLowerCase() === self });
      last = m.end;
    }
    if (last < part.text.length) parts.push({ kind: 'text', text: part.text.slice(last) });
  }
  return parts;
}

/** The attributes a mention renders with (one style rule in chat.css, stronger for the reader). */
export function mentionAttributes(self: boolean) {
  return {
    className: self ? 'mention mention-self' : 'mention',
    'data-testid': 'mention',
    'data-self': self ? 'true' : undefined,
  };
}
