/** The system part of the superadmin dashboard (issue 10), run in both modes by harness.ts. */
import { describe } from 'vitest';
import type { AdminTarget } from './harness.ts';

export function systemSuite(_target: () => AdminTarget) {
  describe('system', () => {
    // filled by the system work
  });
}
