/**
 * The channel-name part of the channels suite (test/suites/channels.suite.ts): topic names are unique per room as
 * their confusable skeletons (services/room/src/name-keys.ts), so a name that renders like a live channel's is
 * refused with the duplicate-name error, and names with invisible characters are refused (proto's ChannelNameSchema).
 * The names themselves are kept as typed: only the uniqueness key is the skeleton.
 */
import { it, expect, describe } from 'vitest';
import { C, ERRORS, CHANNEL_NAME_INVISIBLE_MESSAGE } from '@ephemera/proto';
import { request } from '../helpers/clients.ts';
import { type TestRoom, expectRefused } from './channels.setup.ts';

const CYRILLIC_E = '\u0435';

export function channelNameTests(room: (names: string[]) => Promise<TestRoom>) {
  describe('channel names', () => {
    it("a name that renders like a live channel's (general with a Cyrillic e) is taken; invisible characters are refused", async () => {
      const r = await room(['bob']);
      const create = (name: string) =>
        request(r.owner.socket, C.createChannel, { workspaceId: r.workspaceId, name, type: 'topic', isPrivate: false });
      const general = await r.createChannel(r.owner, 'general');
      const lookalike = `g${CYRILLIC_E}neral`;
      expect(lookalike).not.toBe('general');
      expectRefused(await create(lookalike), 'CHANNEL_NAME_TAKEN', ERRORS.CHANNEL_NAME_TAKEN);
      expectRefused(await create('G\u0415NERAL'), 'CHANNEL_NAME_TAKEN', ERRORS.CHANNEL_NAME_TAKEN);

      const other = await r.createChannel(r.owner, 'other');
      expectRefused(
        await request(r.owner.socket, C.renameChannel, {
          workspaceId: r.workspaceId,
          channelId: other.id,
          newName: lookalike,
        }),
        'CHANNEL_NAME_TAKEN',
        ERRORS.CHANNEL_NAME_TAKEN,
      );
      // A channel may be renamed to a look-alike of its own name: it is the same name.
      const own = await request(r.owner.socket, C.renameChannel, {
        workspaceId: r.workspaceId,
        channelId: general.id,
        newName: lookalike,
      });
      expect(own.success && own.channel.name).toBe(lookalike);

      for (const name of ['gen\u200beral', '\ufeffgeneral2', 'gen\u2060eral', 'a\u202eb']) {
        expectRefused(await create(name), 'VALIDATION', CHANNEL_NAME_INVISIBLE_MESSAGE);
      }
      const [bob] = r.members;
      const names = (await r.channelsOf(bob!)).filter((c) => c.type === 'topic').map((c) => c.name);
      expect(names.sort()).toEqual([lookalike, 'other'].sort());
    });
  });
}
