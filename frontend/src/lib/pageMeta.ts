/**
 * A public page's title and description for search engines and shared links: document.title, the description meta
 * and its Open Graph twins (index.html carries the landing page's). Leaving the page puts back what was there, so the
 * landing page (which sets only its title) shows its own description again. The server answers these pages without
 * `X-Robots-Tag: noindex` (proto/src/paths.ts INDEXED_PAGES); the room page adds `robots: noindex` itself.
 */
import { useEffect } from 'react';

export const SITE_NAME = 'Ephemera';
export const pageTitle = (title: string) => `${title} · ${SITE_NAME}`;

/** the meta elements a page sets: [attribute, key] -> its content */
export function metaFor(
  title: string,
  description: string,
): [attr: 'name' | 'property', key: string, content: string][] {
  return [
    ['name', 'description', description],
    ['property', 'og:title', pageTitle(title)],
    ['property', 'og:description', description],
  ];
}

export function usePageMeta(title: string, description: string): void {
  useEffect(() => {
    const previousTitle = document.title;
    document.title = pageTitle(title);
    const restore: (() => void)[] = [];
    for (const [attr, key, content] of metaFor(title, description)) {
      let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
      if (el) {
        const before = el.getAttribute('content');
        const meta = el;
        restore.push(() => {
          if (before === null) meta.removeAttribute('content');
          else meta.setAttribute('content', before);
        });
      } else {
        el = document.createElement('meta');
        el.setAttribute(attr, key);
        document.head.appendChild(el);
        const created = el;
        restore.push(() => created.remove());
      }
      el.setAttribute('content', content);
    }
    return () => {
      document.title = previousTitle;
      for (const undo of restore) undo();
    };
  }, [title, description]);
}
