/**
 * The server counts mentions with proto's mentionedUsernames; the renderer marks them on Markdown's own tree
 * (remarkSubset.ts). Both must find the same members (docs/product/messages.md M26, M27), or the "@" count would
 * disagree with what the message shows.
 */
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { mentionedUsernames } from '@ephemera/proto/client';
import { MarkdownBody } from './MarkdownBody.tsx';

const NAMES = ['alice', 'bob', 'Mary', 'Mary Ann'];

/** the members the rendered message marks, each once, in order */
function marked(content: string): string[] {
  const html = renderToStaticMarkup(<MarkdownBody content={content} mentions={{ names: NAMES, self: null }} />);
  const found = [...html.matchAll(/data-testid="mention"[^>]*>@([^<]*)</g)].map((m) => m[1]!.toLocaleLowerCase());
  return [...new Set(found)];
}

const CASES = [
  'hi @bob and @ALICE',
  '@Mary Ann and @Mary',
  '**@alice** _@bob_ ~~@Mary~~',
  '> @alice\n- @bob\n1. @Mary',
  'not `@bob` but @alice',
  'look:\n```js\n@bob\n```\n@alice',
  '[@bob](https://example.com) and @alice',
  'https://social.example/@bob @alice',
  'mail alice@example.com',
  '@bob_smith and @alice-x',
  '\\@alice',
  '*@bob* **@Mary Ann**',
];

describe('mention counting agrees with the rendered marks', () => {
  it.each(CASES)('%j', (content) => {
    expect(mentionedUsernames(content, NAMES).map((n) => n.toLocaleLowerCase())).toEqual(marked(content));
  });
});
