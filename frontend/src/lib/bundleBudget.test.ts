/** The build's initial-JS budget (frontend/bundle-budget.ts), on a made-up bundle. */
import { describe, expect, it } from 'vitest';
import { bundleBudget, staticClosure } from '../../bundle-budget.ts';

function chunk(
  fileName: string,
  code: string,
  imports: string[] = [],
  extra: Partial<{ isEntry: boolean; facadeModuleId: string; dynamicImports: string[] }> = {},
) {
  return {
    type: 'chunk' as const,
    fileName,
    code,
    imports,
    dynamicImports: extra.dynamicImports ?? [],
    isEntry: extra.isEntry ?? false,
    facadeModuleId: extra.facadeModuleId ?? null,
  };
}
/** Incompressible-ish text of about n bytes gzipped. */
function noise(n: number): string {
  let s = '';
  let x = 12345;
  while (s.length < n * 2) {
    x = (x * 1103515245 + 12345) % 2147483648;
    s += String.fromCharCode(33 + (x % 90));
  }
  return s;
}

function run(budget: number) {
  const bundle = {
    'index.js': chunk('index.js', noise(3000), ['vendor.js'], {
      isEntry: true,
      dynamicImports: ['room.js', 'emoji.js'],
    }),
    'vendor.js': chunk('vendor.js', noise(3000)),
    'room.js': chunk('room.js', noise(3000), ['vendor.js'], { facadeModuleId: '/app/src/pages/RoomPage.tsx' }),
    'emoji.js': chunk('emoji.js', noise(50_000)),
  };
  const errors: string[] = [];
  const plugin = bundleBudget({ budget, routePages: [/\/pages\/RoomPage\.tsx$/] });
  const hook = plugin.generateBundle as unknown as (this: { error(m: string): never }, o: unknown, b: unknown) => void;
  try {
    hook.call(
      {
        error: (m: string) => {
          errors.push(m);
          throw new Error(m);
        },
      },
      {},
      bundle,
    );
  } catch {
    /* the build would stop here */
  }
  return errors;
}

describe('bundle budget', () => {
  it('initial = entries and their static imports; dynamic imports are not followed', () => {
    const chunks = new Map([
      ['a', chunk('a', '', ['b'], { dynamicImports: ['c'] })],
      ['b', chunk('b', '', ['d'])],
      ['c', chunk('c', '')],
      ['d', chunk('d', '')],
    ]);
    expect(staticClosure(chunks, ['a']).sort()).toEqual(['a', 'b', 'd']);
  });
  it('passes under the budget; the on-demand emoji chunk does not count', () => {
    expect(run(100_000)).toEqual([]);
  });
  it('fails when the landing + room page is over the budget', () => {
    const errors = run(12_000); // initial ~8.5 KB, + room page ~13 KB
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/initial JS \+ pages\/RoomPage\.tsx is .* gzipped/);
    expect(errors[0]).not.toMatch(/^initial JS is/);
  });
  it('fails when the initial JS alone is over the budget', () => {
    expect(run(5_000)[0]).toMatch(/^initial JS is .* gzipped/);
  });
});
