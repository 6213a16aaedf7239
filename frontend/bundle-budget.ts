/**
 * Vite plugin: the initial JavaScript budget (../shared/PERFORMANCE.md: frontend initial JS <= 200 KB gzipped).
 * "Initial" = the entry chunk and every chunk it imports statically (what index.html loads before the app runs);
 * chunks loaded with import() (React.lazy pages, the emoji picker, ...) are listed apart and do not count.
 * Prints the figure at the end of `vite build` and fails the build above the budget.
 */
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** 200 KB as Vite's own report counts it (1 KB = 1000 bytes, zlib's default level). */
export const INITIAL_JS_BUDGET_BYTES = 200_000;

interface ChunkLike { type: 'chunk'; fileName: string; code: string; isEntry: boolean; imports: string[]; dynamicImports: string[] }

const gz = (code: string) => gzipSync(code).length;
const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;

/** The files of the initial JS: entries and their static imports, transitively. */
export function initialChunks(chunks: Map<string, ChunkLike>): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of chunks.get(name)?.imports ?? []) visit(dep);
  };
  for (const c of chunks.values()) if (c.isEntry) visit(c.fileName);
  return [...seen].filter((n) => chunks.has(n));
}

export function bundleBudget(budget = INITIAL_JS_BUDGET_BYTES): Plugin {
  let report: string[] = [];
  return {
    name: 'ephemera-bundle-budget',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkLike>();
      for (const out of Object.values(bundle)) if (out.type === 'chunk') chunks.set(out.fileName, out as unknown as ChunkLike);
      const initial = initialChunks(chunks);
      const initialBytes = initial.reduce((sum, n) => sum + gz(chunks.get(n)!.code), 0);
      const lazy = [...chunks.keys()].filter((n) => !initial.includes(n));
      const lines = [
        `initial JS: ${kb(initialBytes)} gzipped (budget ${kb(budget)}) in ${initial.join(', ')}`,
        ...lazy.map((n) => `  on demand: ${n} ${kb(gz(chunks.get(n)!.code))} gzipped`),
      ];
      report = lines;
      if (initialBytes > budget) {
        this.error(`initial JS is ${kb(initialBytes)} gzipped, over the ${kb(budget)} budget (PERFORMANCE.md): load more on demand`);
      }
    },
    closeBundle() {
      // after Vite's own file list
      if (report.length) console.log(`\n${report.join('\n')}`);
      report = [];
    },
  };
}
