/**
 * Vite plugin for the message catalogs (src/i18n/locales/{locale}/{area}.json, ICU MessageFormat; docs/i18n.md):
 * - each catalog is compiled when the app is built, so the browser gets Lingui's precompiled form and the production
 *   runtime carries no message parser; a message that does not parse fails the build, naming the file and the key;
 * - each key ('room.composer.send') becomes a short id ('a3') in the catalogs and in the code alike, so moving a text
 *   out of a component into an on-demand catalog leaves a few bytes behind instead of a long key (the initial
 *   JavaScript budget, bundle-budget.ts).
 * Outside the build (unit tests, `vite` dev) the keys stay as they are and Lingui compiles messages at run time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

const LOCALES_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), 'src', 'i18n', 'locales');
const CATALOG = /[\\/]src[\\/]i18n[\\/]locales[\\/][a-z]{2}[\\/][a-z]+\.json$/;
const SOURCE = /[\\/]src[\\/].*\.tsx?$/;
/** a quoted string that looks like a key: area, dot, the rest */
const QUOTED_KEY = /(['"`])([a-z]+\.[A-Za-z0-9_.-]+)\1/g;

/** Each key of the English (source) catalogs and its short id: base 36 of its place in the sorted list. */
export function shortIds(localesDir = LOCALES_DIR): Map<string, string> {
  const dir = path.join(localesDir, 'en');
  const keys = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => Object.keys(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as object))
    .sort();
  return new Map(keys.map((key, i) => [key, i.toString(36)]));
}

/** One catalog file's messages in Lingui's compiled form, under their short ids. */
export function compileCatalog(file: string, source: string, ids: Map<string, string>): Record<string, unknown> {
  const messages = JSON.parse(source) as Record<string, string>;
  const compiled: Record<string, unknown> = {};
  for (const [key, message] of Object.entries(messages)) {
    const id = ids.get(key);
    if (id === undefined) throw new Error(`${file}: key ${key} is not in the English catalogs`);
    try {
      compiled[id] = compileMessageOrThrow(message);
    } catch (error) {
      throw new Error(`${file}: message ${key} is not valid ICU MessageFormat: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return compiled;
}

/** The source with every quoted catalog key replaced by its short id. */
export function shortenKeys(code: string, ids: Map<string, string>): string {
  return code.replace(QUOTED_KEY, (quoted, quote: string, key: string) => {
    const id = ids.get(key);
    return id === undefined ? quoted : `${quote}${id}${quote}`;
  });
}

export function linguiCatalogs(): Plugin {
  let ids = new Map<string, string>();
  return {
    name: 'ephemera-lingui-catalogs',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      ids = shortIds();
    },
    load(id) {
      if (!CATALOG.test(id)) return null;
      // still JSON, so Vite's JSON handling turns it into the module as before
      return JSON.stringify(compileCatalog(id, readFileSync(id, 'utf8'), ids));
    },
    transform(code, id) {
      if (!SOURCE.test(id) || id.includes('node_modules')) return null;
      const shortened = shortenKeys(code, ids);
      return shortened === code ? null : { code: shortened, map: null };
    },
  };
}
