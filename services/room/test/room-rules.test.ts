import { describe, it, expect } from 'vitest';
import { hashPassword, verifyPassword } from '../src/password.ts';
import { roomNameProblem } from '../src/rules.ts';
import { ERRORS } from '@ephemera/proto';

describe('room passwords', () => {
  it('are stored as salted scrypt hashes and verify only the right password', async () => {
    const a = await hashPassword('open sesame');
    const b = await hashPassword('open sesame');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toContain('open sesame');
    expect(a).not.toBe(b); // random salt
    expect(await verifyPassword('open sesame', a)).toBe(true);
    expect(await verifyPassword('open sesame!', a)).toBe(false);
    expect(await verifyPassword('open sesame', 'plain$text')).toBe(false);
  });
});

describe('room names', () => {
  it('accept letters and digits of any script, hyphens and underscores, up to 50', () => {
    for (const ok of ['team-standup', 'Équipe_2', '会议室', 'a', 'x'.repeat(50)])
      expect(roomNameProblem(ok)).toBeNull();
  });
  it('refuse empty, too long, path-breaking and reserved names with a reason', () => {
    expect(roomNameProblem('')?.message).toBe('Room name is required');
    expect(roomNameProblem('x'.repeat(51))?.message).toMatch(/at most 50/);
    for (const bad of ['a b', 'a/b', '../x', 'a?b', 'a.b', '<x>'])
      expect(roomNameProblem(bad)?.message).toBe(ERRORS.ROOM_NAME_INVALID);
    for (const reserved of ['login', 'API', 'dashboard', 'socket.io']) expect(roomNameProblem(reserved)).not.toBeNull();
  });
});
