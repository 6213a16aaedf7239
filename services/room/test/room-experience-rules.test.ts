/** The pure rules of the room experience (services/room/src/rules.ts) and the identity key they rely on. */
import { describe, it, expect } from 'vitest';
import type { Channel } from '@ephemera/proto';
import { usernameKey } from '../src/name-keys.ts';
import { changeMembers, checkDmMember, dmKeyOf, initialMembers, requireTopic } from '../src/rules.ts';

const channel = (over: Partial<Channel>): Channel => ({
  id: 'c1',
  workspaceId: 'w',
  name: 'n',
  type: 'topic',
  isPrivate: false,
  memberIds: [],
  createdBy: 'u1',
  createdAt: '',
  ...over,
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as { code?: string }).code ?? 'not a DomainError';
  }
};

describe('DM keys', () => {
  it('are the same whoever starts the DM, and differ per pair', () => {
    expect(dmKeyOf(['b', 'a'])).toBe(dmKeyOf(['a', 'b']));
    expect(dmKeyOf(['a', 'b'])).not.toBe(dmKeyOf(['a', 'c']));
    expect(dmKeyOf(['ab', 'c'])).not.toBe(dmKeyOf(['a', 'bc'])); // the separator cannot appear in an id
  });
});

describe('delete-dm and topic-only commands', () => {
  it('refuse a topic channel with NOT_A_DM and a DM of others with NOT_DM_MEMBER', () => {
    expect(codeOf(() => checkDmMember(channel({}), 'u1'))).toBe('NOT_A_DM');
    expect(codeOf(() => checkDmMember(channel({ type: 'dm', memberIds: ['u1', 'u2'] }), 'u3'))).toBe('NOT_DM_MEMBER');
    expect(codeOf(() => checkDmMember(channel({ type: 'dm', memberIds: ['u1', 'u2'] }), 'u2'))).toBeNull();
  });
  it('rename and delete refuse DMs', () => {
    expect(codeOf(() => requireTopic(channel({ type: 'dm' })))).toBe('VALIDATION');
    expect(codeOf(() => requireTopic(channel({})))).toBeNull();
  });
});

describe('private channel members', () => {
  const room = new Set(['u1', 'u2', 'u3']);
  it('a new private channel always includes its creator, once; a public one lists nobody', () => {
    expect(initialMembers(true, 'u1', ['u2', 'u2', 'u1'], room)).toEqual(['u1', 'u2']);
    expect(initialMembers(true, 'u1', [], room)).toEqual(['u1']);
    expect(initialMembers(false, 'u1', ['u2'], room)).toEqual([]);
  });
  it('refuses members from outside the room', () => {
    expect(codeOf(() => initialMembers(true, 'u1', ['outsider'], room))).toBe('USER_NOT_FOUND');
  });
  it('changes report only what changed', () => {
    expect(changeMembers(['u1', 'u2'], ['u3', 'u2'], ['u1', 'u9'], room)).toEqual({
      memberIds: ['u2', 'u3'],
      added: ['u3'],
      removed: ['u1'],
    });
    expect(changeMembers(['u1'], ['u1'], [], room)).toEqual({ memberIds: ['u1'], added: [], removed: [] });
  });
  it('refuse outsiders, contradictions and an empty channel', () => {
    expect(codeOf(() => changeMembers(['u1'], ['outsider'], [], room))).toBe('USER_NOT_FOUND');
    expect(codeOf(() => changeMembers(['u1'], ['u2'], ['u2'], room))).toBe('VALIDATION');
    expect(codeOf(() => changeMembers(['u1'], [], ['u1'], room))).toBe('VALIDATION');
  });
  it('a removed user who left the room can still be removed (only added users must be members)', () => {
    expect(changeMembers(['u1', 'gone'], [], ['gone'], room).memberIds).toEqual(['u1']);
  });
});

describe('username keys', () => {
  it('lookalikes share a key: case, NFKC (fullwidth), surrounding and repeated spaces', () => {
    for (const same of ['ALICE', 'ａｌｉｃｅ', ' Alice ', 'ＡＬＩＣＥ'])
      expect(usernameKey(same)).toBe(usernameKey('alice'));
    expect(usernameKey('Bob  Smith')).toBe(usernameKey('bob smith'));
    expect(usernameKey('alicia')).not.toBe(usernameKey('alice'));
  });
  it('look-alikes from other scripts share a key (UTS #39 skeleton)', () => {
    expect(usernameKey('\u0430lice')).toBe(usernameKey('alice')); // Cyrillic а
    expect(usernameKey('b\u03bfb')).toBe(usernameKey('bob')); // Greek ο
    expect(usernameKey('rn')).toBe(usernameKey('m'));
  });
});
