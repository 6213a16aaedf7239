/**
 * errorText is used by the account and superadmin pages as well as the room (docs/i18n.md): what it imports must not
 * bring the room's session code (its socket, its store) into those pages' chunks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC_DIR } from './catalogCheck.ts';

/** Every source file reached from one file through relative imports (imports and re-exports, types left out). */
function reachedFrom(file: string): Set<string> {
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    const source = readFileSync(current, 'utf8');
    for (const match of source.matchAll(/^(?:import|export) (?!type )(?:[^;']*? from )?'(\.[^']+)'/gm)) {
      visit(path.resolve(path.dirname(current), match[1]));
    }
  };
  visit(file);
  return seen;
}

describe('errorText’s imports', () => {
  it('reach none of the room session’s modules', () => {
    const reached = [...reachedFrom(path.join(SRC_DIR, 'i18n', 'errorText.ts'))].map((f) => path.relative(SRC_DIR, f));
    expect(reached).toContain('i18n/roomTexts.ts'); // the walk follows the room's own texts
    for (const room of [
      'lib/session.ts',
      'lib/sessionConnection.ts',
      'lib/socket.ts',
      'lib/adminCommands.ts',
      'lib/conversationCommands.ts',
    ]) {
      expect(reached).not.toContain(room);
    }
  });
});
