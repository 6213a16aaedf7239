/**
 * A formatted message rendered to React elements (never to an HTML string), loaded on demand by MessageText.
 * The parser knows only the subset (remarkSubset.ts); raw HTML is skipped and only the subset's elements may come
 * out; a link is a link only for an address safeHref accepts (http, https, mailto), otherwise its text.
 */
import { memo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { safeHref } from '../../lib/links.ts';
import { inlineParts, type MentionContext } from '../../lib/messageInline.ts';
import { remarkSubset } from './remarkSubset.ts';
import { CodeBlock } from './CodeBlock.tsx';
import { capNesting } from './nesting.ts';
import { InlineText } from '../InlineText.tsx';

/**
 * Past this many emphasis markers (`*`, `_`, `~`) the parser's work grows with their square (about 75 ms for 1,000 of
 * them); no real message has so many, and such a message shows as typed, with links and mentions only.
 */
export const MAX_MARKERS = 500;
const MARKERS = /[*_~]/g;

const ELEMENTS = ['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'span'];

const components: Components = {
  a: ({ href, children }) => {
    const safe = href ? safeHref(href) : null;
    if (!safe) return <span>{children}</span>;
    return (
      <a href={safe} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  },
  code: ({ className, children }) => {
    const language = /(?:^|\s)language-(\S+)/.exec(className ?? '')?.[1];
    if (!language) return <code>{children}</code>;
    return <CodeBlock language={language} code={String(children).replace(/\n$/, '')} />;
  },
};

const urlTransform = (url: string) => safeHref(url) ?? '';

export const MarkdownBody = memo(function MarkdownBody({
  content,
  mentions,
}: {
  content: string;
  mentions: MentionContext | null;
}) {
  if ((content.match(MARKERS)?.length ?? 0) > MAX_MARKERS) {
    return (
      <p className="markdown-as-typed">
        <InlineText parts={inlineParts(content, mentions)} />
      </p>
    );
  }
  return (
    <Markdown
      remarkPlugins={[[remarkSubset, mentions]]}
      allowedElements={ELEMENTS}
      unwrapDisallowed
      skipHtml
      urlTransform={urlTransform}
      components={components}
    >
      {capNesting(content)}
    </Markdown>
  );
});
