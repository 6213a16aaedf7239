/**
 * Link detection for message text. Only http, https and mailto addresses become links; everything else
 * stays plain text (rendered as React text, never as HTML).
 */

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const LINK_RE = /(?:https?:\/\/|mailto:)[^\s<>"']+/gi;
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const TRAILING = /[.,;:!?'"\u2019\u201d]+$/;

/** The normalised address if it parses and uses an allowed protocol, else null. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw);
    if (!ALLOWED_PROTOCOLS.has(url.protocol)) return null;
    if (url.protocol !== 'mailto:' && !url.hostname) return null;
    if (url.protocol === 'mailto:' && url.pathname.length === 0) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** Drop sentence punctuation and an unbalanced closing bracket from the end of a match. */
function trimMatch(match: string): string {
  let out = match;
  for (;;) {
    const before = out;
    out = out.replace(TRAILING, '');
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
      ['{', '}'],
    ] as const) {
      if (out.endsWith(close) && count(out, open) < count(out, close)) out = out.slice(0, -1);
    }
    if (out === before) return out;
  }
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

/** Split text into plain parts and link parts. Joining every part's text gives the input back. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(LINK_RE)) {
    const start = m.index ?? 0;
    // a scheme glued to a preceding word character ("xhttp://") is not a link
    if (start > 0 && /[\w/]/.test(text[start - 1] ?? '')) continue;
    const raw = trimMatch(m[0]);
    const href = safeHref(raw);
    if (!href) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: raw, href });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
