/**
 * The Markdown subset of message text (docs/product/messages.md, Formatting) as far as it is read without the
 * renderer: whether a message may hold formatting (otherwise the browser skips the on-demand renderer), its plain text
 * for places that show one line or a snippet (reply quotes, search, the conversation list, notifications), and the
 * text where mentions count (mentions.ts: not in code, link text or addresses). The browser and the server both read
 * messages through these functions.
 */
import { splitLinks } from './links.ts';

/** Characters and line starts that can begin formatting; text without any of them renders as it is. */
const FORMATTING_HINT = /[*_~`\\[]|^[ \t]{0,3}(?:>|[-+][ \t]|\d{1,9}[.)][ \t])/m;

/** whether `text` may hold formatting (false means: certainly none) */
export function hasFormatting(text: string): boolean {
  return FORMATTING_HINT.test(text);
}

const FENCE = /^[ \t]{0,3}(?:`{3,}|~{3,})/;
const QUOTE = /^[ \t]{0,3}(?:>[ \t]?)+/;
const LIST_ITEM = /^([ \t]*)(?:[-+*]|\d{1,9}[.)])[ \t]+/;
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
/** escaped markers wait in the private-use area while the markers around them are removed */
const HIDDEN = 0xe000;
const HIDDEN_RE = /[\ue000-\ue07f]/g;
const LINK = /\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+"[^"\n]*")?\)/g;
const EMPHASIS: [RegExp, string][] = [
  [/~~(?=\S)([\s\S]*?\S)~~/g, '$1'],
  [/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2'],
  [/\*(?=[^\s*])([^*]*?[^\s*])\*/g, '$1'],
  [/\*([^\s*])\*/g, '$1'],
  [/(^|[^\p{L}\p{N}_])_(?=[^\s_])([^_]*?[^\s_]|[^\s_])_(?![\p{L}\p{N}_])/gu, '$1$2'],
];
const MAX_PASSES = 8;
/** what stands in for left-out text when mentions are looked for: a break no name runs across */
const GAP = '\n';

/** How a reading treats what is not plain text: plainText keeps code and link text, mentionText leaves them out. */
interface Reading {
  code: (code: string) => string;
  link: string;
}
const PLAIN: Reading = { code: (code) => code, link: '$1' };
const MENTIONS: Reading = { code: () => GAP, link: GAP };

function stripInline(text: string, reading: Reading): string {
  let out = text.replace(ESCAPE, (_m, ch: string) => String.fromCharCode(HIDDEN + ch.charCodeAt(0)));
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const before = out;
    out = out.replace(LINK, reading.link);
    for (const [re, to] of EMPHASIS) out = out.replace(re, to);
    if (out === before) break;
  }
  return out.replace(HIDDEN_RE, (ch) => String.fromCharCode(ch.charCodeAt(0) - HIDDEN));
}

/** One line outside code blocks: quote and list markers, then inline markers; code spans as the reading says. */
function readLine(line: string, reading: Reading): string {
  const body = line.replace(QUOTE, '').replace(LIST_ITEM, '$1');
  let out = '';
  let last = 0;
  for (const m of body.matchAll(CODE_SPAN)) {
    out += stripInline(body.slice(last, m.index), reading) + reading.code(m[2]!.replace(/^ (.*) $/, '$1'));
    last = m.index + m[0].length;
  }
  return out + stripInline(body.slice(last), reading);
}

function read(markdown: string, reading: Reading): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opens = FENCE.exec(line)?.[0].trim();
    if (fence === null && opens) {
      fence = opens[0]!;
      continue;
    }
    if (fence !== null) {
      if (opens?.startsWith(fence) && line.trim() === opens) fence = null;
      else out.push(reading.code(line));
      continue;
    }
    out.push(readLine(line, reading));
  }
  return out.join('\n');
}

/** The text of a message without its formatting markers (docs/product/messages.md, Formatting). */
export function plainText(markdown: string): string {
  return hasFormatting(markdown) ? read(markdown, PLAIN) : markdown;
}

/**
 * The text in which mentions count (docs/product/messages.md M26): formatting markers removed, and code (spans and
 * blocks), link text and addresses left out, each replaced by a line break so that no name runs across the gap.
 */
export function mentionText(markdown: string): string {
  const text = hasFormatting(markdown) ? read(markdown, MENTIONS) : markdown;
  return splitLinks(text)
    .map((part) => (part.kind === 'link' ? GAP : part.text))
    .join('');
}
