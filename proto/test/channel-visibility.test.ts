/** Who sees a channel (docs/security.md, "Who sees a channel"): every kind of channel against every role in the room. */
import { describe, it, expect } from 'vitest';
import { channelAudience, channelIsMembersOnly, channelVisibleTo, type Channel } from '../src/index.ts';

// A room: the owner created it, admin is a room admin, bob and carol are plain members.
const OWNER = 'owner',
  ADMIN = 'admin',
  BOB = 'bob',
  CAROL = 'carol';
const ROOM = [OWNER, ADMIN, BOB, CAROL];

const channel = (over: Partial<Channel>): Channel => ({
  id: 'c1',
  workspaceId: 'w',
  name: 'n',
  type: 'topic',
  isPrivate: false,
  memberIds: [],
  createdBy: OWNER,
  createdAt: '',
  ...over,
});

/** Each kind of channel and who in the room sees it. */
const CASES: { kind: string; channel: Channel; seenBy: string[] }[] = [
  { kind: 'public topic channel', channel: channel({}), seenBy: ROOM },
  {
    kind: 'private channel the owner is in',
    channel: channel({ isPrivate: true, memberIds: [OWNER, BOB] }),
    seenBy: [OWNER, BOB],
  },
  {
    kind: 'private channel of others (owner and admin not in it)',
    channel: channel({ isPrivate: true, memberIds: [BOB, CAROL], createdBy: BOB }),
    seenBy: [BOB, CAROL],
  },
  {
    kind: 'private channel of an admin',
    channel: channel({ isPrivate: true, memberIds: [ADMIN], createdBy: ADMIN }),
    seenBy: [ADMIN],
  },
  {
    kind: 'DM of two members',
    channel: channel({ type: 'dm', name: 'dm', isPrivate: true, memberIds: [BOB, CAROL], createdBy: BOB }),
    seenBy: [BOB, CAROL],
  },
  {
    kind: 'DM of the owner',
    channel: channel({ type: 'dm', name: 'dm', isPrivate: true, memberIds: [OWNER, CAROL] }),
    seenBy: [OWNER, CAROL],
  },
  // A DM is never the room's, even if a malformed row said it was not private.
  {
    kind: 'DM whose isPrivate flag is false',
    channel: channel({ type: 'dm', name: 'dm', isPrivate: false, memberIds: [BOB, CAROL], createdBy: BOB }),
    seenBy: [BOB, CAROL],
  },
];

describe('who sees a channel', () => {
  for (const { kind, channel: c, seenBy } of CASES) {
    it(`${kind}: seen by ${seenBy.join(', ')} only; its audience is those users`, () => {
      expect(ROOM.filter((userId) => channelVisibleTo(c, userId))).toEqual(seenBy);
      const audience = channelAudience(c);
      if (seenBy.length === ROOM.length) expect(audience).toEqual({ kind: 'workspace' });
      else expect(audience).toEqual({ kind: 'users', userIds: c.memberIds });
    });
  }

  it('a room admin or owner sees no private channel or DM they are not in', () => {
    for (const { channel: c } of CASES) {
      if (!channelIsMembersOnly(c)) continue;
      for (const userId of [OWNER, ADMIN]) expect(channelVisibleTo(c, userId)).toBe(c.memberIds.includes(userId));
    }
  });

  it('a read model that keeps only membersOnly and memberIds answers the same as the whole channel', () => {
    for (const { channel: c } of CASES) {
      const reach = { membersOnly: channelIsMembersOnly(c), memberIds: c.memberIds };
      for (const userId of [...ROOM, 'outsider'])
        expect(channelVisibleTo(reach, userId)).toBe(channelVisibleTo(c, userId));
      expect(channelAudience(reach)).toEqual(channelAudience(c));
    }
  });

  it("members-only: private topic channels and every DM; a public topic channel is the room's", () => {
    expect(channelIsMembersOnly({ type: 'topic', isPrivate: false })).toBe(false);
    expect(channelIsMembersOnly({ type: 'topic', isPrivate: true })).toBe(true);
    expect(channelIsMembersOnly({ type: 'dm', isPrivate: true })).toBe(true);
    expect(channelIsMembersOnly({ type: 'dm', isPrivate: false })).toBe(true);
  });
});
