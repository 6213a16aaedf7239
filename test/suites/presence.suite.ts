/** Placeholder: this suite is being written (issue 6). */
import { describe } from 'vitest';
import type { TargetRef } from './room-experience.ts';

export function presenceSuite(_target: TargetRef) {
  describe('presence', () => {});
}
