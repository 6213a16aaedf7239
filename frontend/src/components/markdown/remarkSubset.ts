/**
 * The remark plugin that makes react-markdown parse only the message subset (docs/product/messages.md, Formatting):
 * constructs outside it are switched off in the parser, so their characters stay text (a `# heading` shows its `#`,
 * `<b>` shows as typed, `![x](y)` is no image). Strikethrough (`~~x~~`) is GitHub's extension. Text is then split
 * the way plain messages are (lib/messageInline.ts): addresses become links, mentions of members are marked, and a
 * line break stays a line break as in any chat.
 */
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { inlineParts, mentionAttributes, type MentionContext } from '../../lib/messageInline.ts';

/** micromark's names of the constructs not in the subset */
const OFF = [
  'headingAtx',
  'setextUnderline',
  'thematicBreak',
  'htmlFlow',
  'htmlText',
  'labelStartImage',
  'definition',
  'codeIndented',
  // addresses and entities are handled as in plain messages (links.ts), not by Markdown's own rules
  'autolink',
  'characterReference',
];

/** the parts of an mdast node this plugin reads or writes */
interface MdNode {
  type: string;
  value?: string;
  url?: string;
  children?: MdNode[];
  data?: object;
}

/** inside these, text stays as it is */
const KEEP = new Set(['link', 'code', 'inlineCode']);

function splitText(value: string, mentions: MentionContext | null): MdNode[] {
  const out: MdNode[] = [];
  value.split('\n').forEach((line, i) => {
    if (i > 0) out.push({ type: 'break' });
    for (const p of inlineParts(line, mentions)) {
      const text = { type: 'text', value: p.text };
      if (p.kind === 'text') out.push(text);
      else if (p.kind === 'link') out.push({ type: 'link', url: p.href, children: [text] });
      else {
        const { className, 'data-testid': testId, 'data-self': self } = mentionAttributes(p.self);
        const hProperties = { className: className.split(' '), dataTestid: testId, dataSelf: self };
        out.push({ type: 'mention', data: { hName: 'span', hProperties }, children: [text] });
      }
    }
  });
  return out;
}

function rewrite(node: MdNode, mentions: MentionContext | null): void {
  if (!node.children || KEEP.has(node.type)) return;
  node.children = node.children.flatMap((child) => {
    if (child.type === 'text') return splitText(child.value ?? '', mentions);
    rewrite(child, mentions);
    return [child];
  });
}

interface ParserData {
  micromarkExtensions?: unknown[];
  fromMarkdownExtensions?: unknown[];
}

/** `this` is unified's processor; only its parser data is used (the way remark-gfm adds its extensions) */
export function remarkSubset(this: unknown, mentions?: MentionContext | null) {
  const data = (this as { data(): ParserData }).data();
  (data.micromarkExtensions ??= []).push(gfmStrikethrough({ singleTilde: false }), { disable: { null: OFF } });
  (data.fromMarkdownExtensions ??= []).push(gfmStrikethroughFromMarkdown());
  return (tree: MdNode) => rewrite(tree, mentions ?? null);
}
