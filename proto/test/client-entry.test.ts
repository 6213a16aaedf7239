/**
 * The browser's entry (proto/src/client.ts) must not reach zod: every module it imports at runtime, transitively,
 * is read here and none may import 'zod' (type-only imports are erased and allowed).
 */
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '..', 'src');

function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) specs.push(m[2]!);
  return specs;
}

describe('proto client entry', () => {
  it('reaches no zod at runtime', () => {
    const seen = new Set<string>();
    const offenders: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of runtimeImports(file)) {
        if (spec === 'zod' || spec.startsWith('zod/')) offenders.push(path.relative(SRC, file));
        else if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      }
    };
    visit(path.join(SRC, 'client.ts'));
    expect(seen.size).toBeGreaterThan(3);
    expect(offenders).toEqual([]);
  });

  it('exports the constants the browser uses', async () => {
    const client = await import('../src/client.ts');
    for (const name of [
      'C',
      'S',
      'LIMITS',
      'CLIENT_CONNECTION',
      'API',
      'LINK_PREVIEW_PATH',
      'settingsForTier',
      'RESERVED_ROOM_NAMES',
      'ERRORS',
    ]) {
      expect(client, name).toHaveProperty(name);
    }
  });
});
