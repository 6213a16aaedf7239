/**
 * A formatted message rendered to React elements (never to an HTML string), loaded on demand by MessageText.
 * The parser knows only the subset (remarkSubset.ts); raw HTML is skipped and only the subset's elements may come
 * out; a link is a link only for an address safeHref accepts (http, https, mailto), otherwise its text.
 */
import { memo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { safeHref } from '../../lib/links.ts';
import type { MentionContext } from '../../lib/messageInline.ts';
import { remarkSubset } from './remarkSubset.ts';
import { CodeBlock } from './CodeBlock.tsx';
import { capNesting } from './nesting.ts';

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
