/** The analytics part of the superadmin dashboard (issue 10), run in both modes by harness.ts. */
import { describe } from 'vitest';
import type { AdminTarget } from './harness.ts';

export function analyticsSuite(_target: () => AdminTarget) {
  describe('analytics', () => {
    // filled by the analytics work
  });
}
