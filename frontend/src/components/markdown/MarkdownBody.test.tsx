/** The Markdown renderer's subset and safety (docs/product/messages.md, Formatting and Mentions). */
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MarkdownBody, MAX_MARKERS } from './MarkdownBody.tsx';
import { highlight } from './highlight.ts';
import { languageName } from './codeLanguages.ts';
import { capNesting, MAX_NESTING } from './nesting.ts';
import type { MentionContext } from '../../lib/messageInline.ts';

const render = (content: string, mentions: MentionContext | null = null) =>
  renderToStaticMarkup(<MarkdownBody content={content} mentions={mentions} />);

/** every element name in the markup */
const tags = (html: string) => new Set([...html.matchAll(/<([a-z0-9]+)[\s>/]/g)].map((m) => m[1]));
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

const HOSTILE = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 1">',
  '<iframe src="https://example.com"></iframe>',
  '[click](javascript:window.__pwned=1)',
  '[data](data:text/html;base64,PHNjcmlwdD4=)',
  '[vb](vbscript:msgbox)',
  '[rel](/relative) <javascript:alert(1)> <https://example.com>',
  '![pic](https://example.com/a.png)',
  '# heading\n\nsetext\n===\n\n---',
  '| a | b |\n| - | - |\n| 1 | 2 |',
  '[ref]: javascript:alert(1)\n\n[ref]',
  '**<b onclick="x()">bold</b>** _<svg onload=alert(1)>_',
  '&lt;script&gt; &#106;avascript:',
].join('\n\n');

describe('MarkdownBody safety', () => {
  const html = render(HOSTILE);
  it('renders only the subset elements, no markup from the text', () => {
    const allowed = new Set(['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a']);
    expect([...tags(html)].filter((t) => !allowed.has(t!) && t !== 'span')).toEqual([]);
    for (const t of ['script', 'img', 'iframe', 'svg', 'h1', 'h2', 'hr', 'table', 'b'])
      expect(tags(html).has(t)).toBe(false);
    expect(html).not.toMatch(/<[^>]*\son[a-z]+=/i);
  });
  it('links only http, https and mailto; other links are their text', () => {
    // addresses typed as text are links as in plain messages; `![pic](…)` is no image: a "!" and a link
    expect(hrefs(html).sort()).toEqual(['https://example.com/', 'https://example.com/', 'https://example.com/a.png']);
    expect(html).toContain('click');
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('# heading');
    expect(html).toContain('&amp;lt;script&amp;gt;');
  });
  it('opens links in a new tab without access to the page', () => {
    const out = render('[docs](https://example.com/docs) and mailto:team@example.com');
    expect(out).toContain('<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">docs</a>');
    expect(hrefs(out)).toEqual(['https://example.com/docs', 'mailto:team@example.com']);
  });
});

describe('MarkdownBody formatting', () => {
  it('renders the subset as elements', () => {
    const out = render(
      '**bold** *it* ~~del~~ `code`\n> quoted\n\n- one\n- two\n\n1. first\n\nsee https://example.com.',
    );
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<em>it</em>');
    expect(out).toContain('<del>del</del>');
    expect(out).toContain('<code>code</code>');
    expect(out).toMatch(/<blockquote>\s*<p>quoted<\/p>\s*<\/blockquote>/);
    expect(out).toMatch(/<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(out).toMatch(/<ol>\s*<li>first<\/li>\s*<\/ol>/);
    expect(out).toContain(
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer">https://example.com</a>.',
    );
  });
  it('keeps line breaks and a single tilde', () => {
    expect(render('one\ntwo ~x~')).toMatch(/^<p>one<br\/>\s*two ~x~<\/p>$/);
  });
  it('marks mentions of members, the reader more strongly, not inside code', () => {
    const out = render('hi @bob and @Alice, not `@bob` or @carol', { names: ['alice', 'bob'], self: 'Alice' });
    expect(out).toContain('<span class="mention" data-testid="mention">@bob</span>');
    expect(out).toContain('<span class="mention mention-self" data-testid="mention" data-self="true">@Alice</span>');
    expect(out).toContain('<code>@bob</code>');
    expect(out.match(/data-testid="mention"/g)).toHaveLength(2);
  });
  it('shows a code block plainly until its grammar has loaded; unknown languages stay plain', () => {
    const out = render('```js\nconst a = 1;\n```\n\n```nosuchlang\nx\n```');
    expect(out).toContain('<pre><code class="hljs language-javascript" data-language="js">const a = 1;</code></pre>');
    expect(out).toContain('<pre><code data-language="nosuchlang">x</code></pre>');
    expect(languageName('TS')).toBe('typescript');
    expect(languageName('constructor')).toBeNull();
  });
  it('highlights into elements, not an HTML string', async () => {
    const out = renderToStaticMarkup(<>{await highlight('const a = "<img>";', 'javascript')}</>);
    expect(out).toBe(
      '<span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;&lt;img&gt;&quot;</span>;',
    );
  });
  it('nests quotes and lists at most MAX_NESTING deep on a line; the rest is text', () => {
    const depth = (html: string) => html.match(/<(blockquote|ul|ol)>/g)?.length ?? 0;
    expect(depth(render('> > - 1. deep'))).toBe(4);
    expect(render('> > - 1. deep')).toContain('deep');
    const deep = render('> '.repeat(20) + 'bottom');
    expect(depth(deep)).toBe(MAX_NESTING);
    expect(deep).toContain('&gt; '.repeat(20 - MAX_NESTING - 1) + '&gt; bottom');
    expect(capNesting('1. 2. 3. 4. 5. 6. 7. 8.')).toBe('1. 2. 3. 4. 5. 6. 7\\. 8.');
  });
  it('shows a message with more than MAX_MARKERS emphasis markers as typed, links and mentions kept', () => {
    const many = '*a* '.repeat(MAX_MARKERS / 2);
    expect(render(many)).toContain('<em>a</em>');
    const over = render(many + '_ @bob https://example.com', { names: ['bob'], self: null });
    expect(over).not.toContain('<em>');
    expect(over).toMatch(/^<p class="markdown-as-typed"><span>\*a\* \*a\*/);
    expect(over).toContain('<span class="mention" data-testid="mention">@bob</span>');
    expect(over).toContain('<a href="https://example.com/" target="_blank" rel="noopener noreferrer">');
  });
  it('renders 2,000-character messages of nested markers (figures printed, not asserted)', () => {
    const messages = {
      'nested markers': ('**_~~`' + 'x'.repeat(4) + '`~~_** ').repeat(100).slice(0, 1000) + '*_'.repeat(500),
      'bold words, just under MAX_MARKERS': ('**word** '.repeat(MAX_MARKERS / 4) + 'plain words ').padEnd(2000, 'z '),
      'nested quotes': '> '.repeat(1000),
      'nested quotes and lists': '> - '.repeat(500),
      'a chat message with formatting': 'Hi @bob, **see** `code` and _this_: https://example.com/x\n- item\n'.repeat(
        25,
      ),
    };
    for (const [name, text] of Object.entries(messages)) {
      const content = text.slice(0, 2000);
      render(content); // warm up
      const runs = 10;
      const started = performance.now();
      for (let i = 0; i < runs; i++) render(content, { names: ['bob'], self: 'bob' });
      const ms = (performance.now() - started) / runs;
      // vitest runs React's and micromark's development builds: a production build renders faster
      console.log(`MarkdownBody: ${ms.toFixed(1)} ms per server render, ${content.length} characters: ${name}`);
    }
    expect(render(messages['nested markers'])).toContain('<p class="markdown-as-typed"><span>**_~~`xxxx`~~_** ');
  });
});
