/** The directory part of the superadmin dashboard (issue 10), run in both modes by harness.ts. */
import { describe } from 'vitest';
import type { AdminTarget } from './harness.ts';

export function directorySuite(_target: () => AdminTarget) {
  describe('directory', () => {
    // filled by the directory work
  });
}
