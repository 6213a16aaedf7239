/**
 * Vite plugin: a second HTML page for a lazy route page (the room page), which names that page's chunks, their
 * static imports and their CSS as `<link rel="modulepreload">` and stylesheet links. A browser opening /{roomName}
 * then fetches them together with the entry, instead of discovering them only once the entry has run: on a phone
 * on a slow link that saves a whole round of downloads before the room shows. The servers answer room paths with
 * this page (services/platform/src/web.ts, nginx's `location /`); every other path keeps index.html.
 */
import type { Plugin } from 'vite';
import { chunksOf, staticClosure } from './bundle-budget.ts';

export interface RoutePreloadOptions {
  /** the lazy route page (matched against the chunk's module id) */
  page: RegExp;
  /** the HTML file written beside index.html */
  fileName: string;
}

export function routePreload({ page, fileName }: RoutePreloadOptions): Plugin {
  let base = '/';
  return {
    name: 'ephemera-route-preload',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = chunksOf(bundle);
      const index = bundle['index.html'];
      const route = [...chunks.values()].find((c) => !c.isEntry && c.facadeModuleId && page.test(c.facadeModuleId));
      if (!index || index.type !== 'asset' || !route) {
        this.error(`route preload: ${!route ? `no lazy chunk for ${page}` : 'no index.html in the bundle'}`);
      }
      const initial = new Set(
        staticClosure(
          chunks,
          [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName),
        ),
      );
      const scripts = staticClosure(chunks, [route.fileName]).filter((f) => !initial.has(f));
      const styles = [...new Set(scripts.flatMap((f) => [...(chunks.get(f)!.viteMetadata?.importedCss ?? [])]))];
      const links = [
        ...scripts.map((f) => `<link rel="modulepreload" crossorigin href="${base}${f}">`),
        ...styles.map((f) => `<link rel="stylesheet" crossorigin href="${base}${f}">`),
      ]
        .map((l) => `    ${l}\n`)
        .join('');
      const html = String(index.source);
      if (!/\n?\s*<\/head>/.test(html)) this.error('route preload: index.html has no </head>');
      this.emitFile({ type: 'asset', fileName, source: html.replace(/\n?\s*<\/head>/, `\n${links}  </head>`) });
    },
  };
}
