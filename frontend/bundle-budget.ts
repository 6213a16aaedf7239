/**
 * Vite plugin: the initial JavaScript budget (docs/product/performance.md PF17: frontend initial JS <= 200 KB gzipped).
 * "Initial" = the entry chunk and every chunk it imports statically (what index.html loads before the app runs).
 * A route page loaded with React.lazy (the room page) is checked as well: entry + that page's chunks is what a
 * visitor opening /{roomName} downloads before the room shows, and it must fit the same budget.
 * Other import() chunks (the emoji picker and its data, ...) load on demand and are listed apart.
 * Prints the figures at the end of `vite build` and fails the build above the budget.
 */
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** 200 KB as Vite's own report counts it (1 KB = 1000 bytes, zlib's default level). */
export const INITIAL_JS_BUDGET_BYTES = 200_000;

/** What the build plugins (this one, route-preload.ts, installable-app.ts) read of an output chunk. */
export interface ChunkLike {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** The bundle's chunks by file name (its assets left out). */
export function chunksOf(bundle: Record<string, { type: string; fileName: string }>): Map<string, ChunkLike> {
  const chunks = new Map<string, ChunkLike>();
  for (const out of Object.values(bundle))
    if (out.type === 'chunk') chunks.set(out.fileName, out as unknown as ChunkLike);
  return chunks;
}

const gz = (code: string) => gzipSync(code).length;
const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;

/** The given chunks and their static imports, transitively. */
export function staticClosure(chunks: Map<string, ChunkLike>, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !chunks.has(name)) return;
    seen.add(name);
    for (const dep of chunks.get(name)!.imports) visit(dep);
  };
  roots.forEach(visit);
  return [...seen];
}

export interface BudgetOptions {
  budget?: number;
  /** lazy route pages checked together with the initial JS (matched against the chunk's module id) */
  routePages?: RegExp[];
}

export function bundleBudget({ budget = INITIAL_JS_BUDGET_BYTES, routePages = [] }: BudgetOptions = {}): Plugin {
  let report: string[] = [];
  return {
    name: 'ephemera-bundle-budget',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = chunksOf(bundle);
      const size = new Map([...chunks].map(([n, c]) => [n, gz(c.code)]));
      const total = (names: string[]) => names.reduce((sum, n) => sum + size.get(n)!, 0);

      const initial = staticClosure(
        chunks,
        [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName),
      );
      const checks: { label: string; bytes: number; files: string[] }[] = [
        { label: 'initial JS', bytes: total(initial), files: initial },
      ];
      const counted = new Set(initial);
      for (const page of routePages) {
        // a pattern matching several lazy chunks (a page and the chunk it loads next) counts them together
        const pageChunks = [...chunks.values()].filter(
          (c) => !c.isEntry && c.facadeModuleId && page.test(c.facadeModuleId),
        );
        if (pageChunks.length === 0) {
          this.error(`bundle budget: no lazy chunk for route page ${page}`);
        }
        const files = staticClosure(chunks, [...initial, ...pageChunks.map((c) => c.fileName)]);
        files.forEach((f) => counted.add(f));
        checks.push({
          label: `initial JS + ${pageChunks.map((c) => c.facadeModuleId!.replace(/^.*\/src\//, '')).join(' + ')}`,
          bytes: total(files),
          files,
        });
      }
      report = [
        ...checks.map((c) => `${c.label}: ${kb(c.bytes)} gzipped (budget ${kb(budget)})`),
        ...[...chunks.keys()]
          .filter((n) => !counted.has(n))
          .map((n) => `  on demand: ${n} ${kb(size.get(n)!)} gzipped`),
      ];
      const over = checks.filter((c) => c.bytes > budget);
      if (over.length) {
        this.error(
          `${over.map((c) => `${c.label} is ${kb(c.bytes)} gzipped`).join('; ')}: over the ${kb(budget)} budget (docs/product/performance.md PF17); load more on demand`,
        );
      }
    },
    closeBundle() {
      // after Vite's own file list
      if (report.length) console.log(`\n${report.join('\n')}`);
      report = [];
    },
  };
}
