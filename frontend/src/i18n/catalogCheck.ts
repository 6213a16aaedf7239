/**
 * The catalogs' check (docs/i18n.md), as functions the unit test runs over the real files: every key used in the
 * code has an English and a German text, every catalog key is used, both locales hold the same keys with the same
 * placeholders, and a converted file shows no text that bypasses the catalogs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { AREAS, LOCALES, SOURCE_LOCALE } from './locales.ts';

export const SRC_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const LOCALES_DIR = path.join(SRC_DIR, 'i18n', 'locales');

/** A quoted catalog key in source code: one of the areas, a dot, the rest (the same form lingui-catalogs.ts shortens). */
const USED_KEY = new RegExp(`(['"\`])((?:${AREAS.join('|')})\\.[A-Za-z0-9_.-]+)\\1`, 'g');

export type Catalog = Record<string, string>;

export function readCatalog(locale: string, area: string): Catalog {
  return JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, `${area}.json`), 'utf8')) as Catalog;
}

/** Every catalog file, by locale and area. */
export function allCatalogs(): Map<string, Map<string, Catalog>> {
  return new Map(LOCALES.map((l) => [l.code, new Map(AREAS.map((a) => [a, readCatalog(l.code, a)]))]));
}

/** The placeholder names and numbered tags of one ICU message ('{count}', '<0>'); throws when it does not parse. */
export function placeholders(message: string): string[] {
  const names = new Set<string>();
  // compiled: a string, or a list of strings and [name, format?, options?] with each option a compiled message
  const walk = (compiled: unknown): void => {
    if (typeof compiled === 'string') {
      for (const tag of compiled.matchAll(/<\/?(\d+)\/?>/g)) names.add(`<${tag[1]}>`);
      return;
    }
    if (!Array.isArray(compiled)) return; // a plural's offset
    for (const token of compiled as unknown[]) {
      if (typeof token === 'string') walk(token);
      else if (Array.isArray(token)) {
        if (token[0] !== '#') names.add(String(token[0]));
        for (const option of Object.values((token[2] ?? {}) as Record<string, unknown>)) walk(option);
      }
    }
  };
  walk(compileMessageOrThrow(message));
  return [...names].sort();
}

/** Source files of the app (tests and the catalogs' own machinery left out). */
export function sourceFiles(dir = SRC_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !file.includes(`${path.sep}testing${path.sep}`));
}

/** The catalog keys each source file uses, by file. */
export function usedKeys(files: string[]): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of files) {
    const keys = [...readFileSync(file, 'utf8').matchAll(USED_KEY)].map((m) => m[2]!);
    if (keys.length) used.set(file, keys);
  }
  return used;
}

/** A converted file: it takes its texts from the catalogs (it imports the i18n module). */
export function isConverted(source: string): boolean {
  return /from '(?:\.\.?\/)+(?:i18n\/)?(?:i18n|Trans)\.tsx?'/.test(source);
}

/** JSX attributes that people read or hear: their literal values must come from the catalogs. */
const READ_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'title', 'placeholder', 'alt', 'label', 'content']);
/** Words shown as they are in every language: the product's name and the paid plans' names (proto's PLAN_PRICES). */
const UNTRANSLATED = new Set(['Ephemera', 'Pro', 'Business']);

const hasWords = (text: string) => /\p{L}{2,}/u.test(text) && !UNTRANSLATED.has(text.trim());

/** The texts in one file's JSX that bypass the catalogs: text nodes, read attributes, literal children. */
export function unlocalizedTexts(file: string, source: string): string[] {
  const found: string[] = [];
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const where = (node: ts.Node) =>
    `${path.relative(SRC_DIR, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && hasWords(node.text)) found.push(`${where(node)} text "${node.text.trim()}"`);
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText())) {
      const value = node.initializer;
      const literal =
        value && ts.isStringLiteral(value)
          ? value
          : value && ts.isJsxExpression(value) && value.expression && ts.isStringLiteralLike(value.expression)
            ? value.expression
            : null;
      if (literal && hasWords(literal.text)) found.push(`${where(node)} ${node.name.getText()}="${literal.text}"`);
    }
    if (ts.isJsxExpression(node) && ts.isJsxElement(node.parent) && node.expression) {
      const e = node.expression;
      if (ts.isStringLiteralLike(e) && hasWords(e.text)) found.push(`${where(node)} text {'${e.text}'}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

export { SOURCE_LOCALE };
