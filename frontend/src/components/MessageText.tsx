/**
 * Message text. Text without formatting characters renders at once as text, links and mentions (InlineText); text
 * that may hold formatting shows its plain text (lib/markdown.ts) until the Markdown renderer, an on-demand chunk,
 * has loaded, then its formatted form (docs/product/messages.md, Formatting).
 */
import { useEffect, useMemo, useState } from 'react';
import { hasFormatting, plainText } from '../lib/markdown.ts';
import { inlineParts } from '../lib/messageInline.ts';
import { useMentions } from './MentionsProvider.tsx';
import { InlineText } from './InlineText.tsx';

type Renderer = typeof import('./markdown/MarkdownBody.tsx');

let renderer: Renderer | null = null;
let loading: Promise<Renderer> | null = null;

function loadRenderer(): Promise<Renderer> {
  loading ??= import('./markdown/MarkdownBody.tsx').then((m) => (renderer = m));
  // a failed load (offline) may be tried again by the next formatted message
  loading.catch(() => (loading = null));
  return loading;
}

export function MessageText({ content }: { content: string }) {
  const mentions = useMentions();
  const formatted = useMemo(() => hasFormatting(content), [content]);
  const [loaded, setLoaded] = useState(renderer);
  useEffect(() => {
    if (!formatted || loaded) return;
    let live = true;
    loadRenderer()
      .then((m) => live && setLoaded(m))
      .catch(() => {
        /* stays plain text */
      });
    return () => {
      live = false;
    };
  }, [formatted, loaded]);
  const parts = useMemo(
    () => (formatted && loaded ? null : inlineParts(formatted ? plainText(content) : content, mentions)),
    [content, formatted, loaded, mentions],
  );
  if (!parts && loaded) {
    return (
      <div className="message-text message-markdown" data-testid="message-content" data-format="markdown">
        <loaded.MarkdownBody content={content} mentions={mentions} />
      </div>
    );
  }
  return (
    <span className="message-text" data-testid="message-content">
      <InlineText parts={parts ?? []} />
    </span>
  );
}
