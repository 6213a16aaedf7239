/**
 * Reads a page's preview fields with htmlparser2 (a maintained, forgiving HTML tokenizer; no DOM is built and no
 * script runs): Open Graph, then Twitter cards, then <title> and <meta name="description">.
 */
import { Parser } from 'htmlparser2';

export interface PageMeta {
  title: string | null;
  description: string | null;
  image: string | null;
  author: string | null;
  siteName: string | null;
}

const MAX = { title: 300, description: 1000, author: 200, siteName: 200, url: 2048 } as const;

/** Collapse white space, drop control characters, cut to `max` characters; null when nothing is left. */
function clean(s: string | undefined, max: number): string | null {
  if (!s) return null;
  const t = s
    // eslint-disable-next-line no-control-regex -- control characters are what it drops
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!t) return null;
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

/** An absolute http(s) address resolved against the page; anything else (javascript:, data:) is dropped. */
function absoluteHttp(s: string | undefined, base: URL): string | null {
  if (!s) return null;
  try {
    const u = new URL(s.trim(), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.href.length <= MAX.url ? u.href : null;
  } catch {
    return null;
  }
}

export function parsePage(html: string, base: URL): PageMeta {
  const meta = new Map<string, string>();
  let title = '';
  let titleState: 'before' | 'in' | 'done' = 'before';
  let foreign = 0; // inside <svg> or <math>, whose <title> is not the page's
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'svg' || name === 'math') foreign++;
        else if (name === 'title' && titleState === 'before' && foreign === 0) titleState = 'in';
        else if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? attrs.itemprop ?? '').trim().toLowerCase();
          const content = attrs.content;
          if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
        }
      },
      ontext(text) {
        if (titleState === 'in') title += text;
      },
      onclosetag(name) {
        if (name === 'svg' || name === 'math') foreign = Math.max(0, foreign - 1);
        else if (name === 'title' && titleState === 'in') titleState = 'done';
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  const first = (...keys: string[]) => keys.map((k) => meta.get(k)).find((v) => v !== undefined && v.trim() !== '');
  return {
    title: clean(first('og:title', 'twitter:title') ?? title, MAX.title),
    description: clean(first('og:description', 'twitter:description', 'description'), MAX.description),
    image: absoluteHttp(
      first('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'),
      base,
    ),
    author: clean(first('author', 'article:author', 'twitter:creator'), MAX.author),
    siteName: clean(first('og:site_name', 'application-name'), MAX.siteName),
  };
}
