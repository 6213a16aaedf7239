/**
 * Channels, DMs, profile and leaving (docs/product/rooms.md R15-R30, files.md F9) over the real protocol with
 * several clients, A and B on different gateway replicas in distributed mode. Each behaviour: the success path,
 * what every other member sees (and what a non-member never sees), and the refusal for each role that may not call it.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { C, S, ERRORS, type Channel } from '@ephemera/proto';
import { collect, next, request, connect } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';
import { TestRoom, expectRefused } from './channels.setup.ts';
import { memberTests } from './channels.members.ts';
import { channelNameTests } from './channels.names.ts';

export function channelsSuite(target: TargetRef) {
  describe('channels', () => {
    const open: TestRoom[] = [];
    const room = async (names: string[]) => {
      const r = await TestRoom.open(target, names);
      open.push(r);
      return r;
    };
    afterEach(() => {
      while (open.length) open.pop()!.close();
    });

    describe('direct messages', () => {
      it('create-dm-channel acks the DM, the partner gets auto-open-dm, a second create answers the same DM', async () => {
        const r = await room(['bob', 'carol']);
        const [bob, carol] = r.members;
        const carolOpened = collect<{ channelId: string }>(carol.socket, S.autoOpenDm);
        const carolCreated = collect<Channel>(carol.socket, S.channelCreated);
        const opened = next<{ channelId: string; channel: Channel }>(bob.socket, S.autoOpenDm);
        const dm = await r.dm(r.owner, bob);
        expect(dm).toMatchObject({ type: 'dm', isPrivate: true, workspaceId: r.workspaceId, createdBy: r.owner.id });
        expect([...dm.memberIds].sort()).toEqual([r.owner.id, bob.id].sort());
        const auto = await opened;
        expect(auto.channelId).toBe(dm.id);
        expect(auto.channel.id).toBe(dm.id);

        expect((await r.dm(r.owner, bob)).id).toBe(dm.id);
        expect((await r.dm(bob, r.owner)).id).toBe(dm.id); // one DM per pair, whoever starts it
        await r.roomBarrier([carol.socket]);
        expect(carolOpened.filter((p) => p.channelId === dm.id)).toEqual([]);
        expect(carolCreated.filter((c) => c.id === dm.id)).toEqual([]);
        expect((await r.channelsOf(carol)).map((c) => c.id)).not.toContain(dm.id);
        expect((await r.channelsOf(bob)).map((c) => c.id)).toContain(dm.id);
      });

      it('a DM needs another current member as its target', async () => {
        const r = await room(['bob']);
        expectRefused(
          await request(r.owner.socket, C.createDmChannel, { workspaceId: r.workspaceId, targetUserId: 'nobody-here' }),
          'USER_NOT_FOUND',
          ERRORS.USER_NOT_FOUND,
        );
        expectRefused(
          await request(r.owner.socket, C.createDmChannel, { workspaceId: r.workspaceId, targetUserId: r.owner.id }),
          'VALIDATION',
        );
        const other = await room(['dave']);
        expectRefused(
          await request(r.owner.socket, C.createDmChannel, {
            workspaceId: r.workspaceId,
            targetUserId: other.members[0]!.id,
          }),
          'USER_NOT_FOUND',
        );
        expectRefused(
          await request(r.owner.socket, C.createDmChannel, {
            workspaceId: other.workspaceId,
            targetUserId: other.members[0]!.id,
          }),
          'FORBIDDEN',
        );
        const anonymous = await connect(r.owner.base);
        expectRefused(
          await request(anonymous, C.createDmChannel, { workspaceId: r.workspaceId, targetUserId: r.members[0]!.id }),
          'NOT_AUTHENTICATED',
        );
        anonymous.disconnect();
      });

      it('delete-dm hides it for the caller only (all their sockets); the partner keeps it; a later message reopens it', async () => {
        const r = await room(['bob']);
        const [bob] = r.members;
        const dm = await r.dm(r.owner, bob);
        const aliceOther = await r.secondSocket(r.owner, bob.base); // the owner's second tab, on the other origin
        const bobHidden = collect(bob.socket, S.dmDeletedForUser);
        const hiddenHere = next(r.owner.socket, S.dmDeletedForUser, (p: any) => p.channelId === dm.id);
        const hiddenThere = next(aliceOther, S.dmDeletedForUser, (p: any) => p.channelId === dm.id);

        const ack = await request(r.owner.socket, C.deleteDm, {
          channelId: dm.id,
          workspaceId: r.workspaceId,
          userId: r.owner.id,
        });
        expect(ack).toEqual({ success: true, channelId: dm.id });
        await Promise.all([hiddenHere, hiddenThere]);
        await r.roomBarrier([bob.socket]);
        expect(bobHidden).toEqual([]);
        expect((await r.channelsOf(r.owner)).map((c) => c.id)).not.toContain(dm.id);
        expect((await r.channelsOf(bob)).map((c) => c.id)).toContain(dm.id);

        // The partner can still write; the message brings the DM back for the owner.
        const reopened = next<{ channelId: string; channel: Channel }>(
          r.owner.socket,
          S.autoOpenDm,
          (p) => p.channelId === dm.id,
          15_000,
        );
        const sent = await r.send(bob, dm.id, 'still there?');
        expect(sent.success, JSON.stringify(sent)).toBe(true);
        expect((await reopened).channel.type).toBe('dm');
        await expect
          .poll(async () => (await r.channelsOf(r.owner)).map((c) => c.id), { timeout: 10_000 })
          .toContain(dm.id);
      });

      it('create-dm-channel of a DM the caller hid reopens it for the caller', async () => {
        const r = await room(['bob']);
        const [bob] = r.members;
        const dm = await r.dm(bob, r.owner);
        expect((await request(bob.socket, C.deleteDm, { channelId: dm.id, workspaceId: r.workspaceId })).success).toBe(
          true,
        );
        const reopened = next(bob.socket, S.autoOpenDm, (p: any) => p.channelId === dm.id);
        expect((await r.dm(bob, r.owner)).id).toBe(dm.id);
        await reopened;
        expect((await r.channelsOf(bob)).map((c) => c.id)).toContain(dm.id);
      });

      it('delete-dm errors: the spec texts for a topic channel and for a DM of others', async () => {
        const r = await room(['bob', 'carol']);
        const [bob, carol] = r.members;
        const topic = await r.createChannel(r.owner, 'topic');
        const dm = await r.dm(r.owner, bob);
        expectRefused(
          await request(r.owner.socket, C.deleteDm, { channelId: topic.id, workspaceId: r.workspaceId }),
          'NOT_A_DM',
          'Channel is not a DM',
        );
        expectRefused(
          await request(carol.socket, C.deleteDm, { channelId: dm.id, workspaceId: r.workspaceId }),
          'NOT_DM_MEMBER',
          'You are not a member of this DM conversation',
        );
        expectRefused(
          await request(carol.socket, C.deleteDm, { channelId: 'no-such-channel', workspaceId: r.workspaceId }),
          'CHANNEL_NOT_FOUND',
        );
        expectRefused(
          await request(carol.socket, C.deleteDm, { channelId: dm.id, workspaceId: r.workspaceId, userId: bob.id }),
          'FORBIDDEN',
        );
        expect((await r.channelsOf(bob)).map((c) => c.id)).toContain(dm.id);
        expect((await r.channelsOf(r.owner)).map((c) => c.id)).toContain(dm.id);
      });
    });

    describe('private channels', () => {
      it('reach only their members: channel-created, messages, typing, join-channel, fetch, the channel list', async () => {
        const r = await room(['bob', 'carol']);
        const [bob, carol] = r.members;
        const carolChannels = collect<Channel>(carol.socket, S.channelCreated);
        const carolMessages = collect<{ channelId: string }>(carol.socket, S.message);
        const carolTyping = collect<{ channelId: string }>(carol.socket, S.userTyping);
        const bobGets = next<Channel>(bob.socket, S.channelCreated, (c) => c.name === 'secret');
        const secret = await r.createChannel(r.owner, 'secret', true, [bob.id]);
        expect(secret).toMatchObject({ isPrivate: true, type: 'topic' });
        expect([...secret.memberIds].sort()).toEqual([r.owner.id, bob.id].sort());
        expect((await bobGets).id).toBe(secret.id);

        const aliceHears = next(r.owner.socket, S.message, (m: any) => m.channelId === secret.id);
        expect((await r.send(bob, secret.id, 'members only')).success).toBe(true);
        await aliceHears;
        const aliceTyping = next(r.owner.socket, S.userTyping, (p: any) => p.channelId === secret.id);
        expect((await request(bob.socket, C.typingStart, { channelId: secret.id })).success).toBe(true);
        await aliceTyping;

        expectRefused(await request(carol.socket, C.joinChannel, { channelId: secret.id }), 'NOT_A_MEMBER');
        expectRefused(await request(carol.socket, C.fetchMessages, { channelId: secret.id }), 'NOT_A_MEMBER');
        expectRefused(await request(carol.socket, C.typingStart, { channelId: secret.id }), 'NOT_A_MEMBER');
        expectRefused(await r.send(carol, secret.id, 'let me in'), 'NOT_A_MEMBER');
        await r.roomBarrier([carol.socket]);
        await r.messageBarrier([carol.socket]);
        expect(carolChannels.map((c) => c.id)).not.toContain(secret.id);
        expect(carolMessages.filter((m) => m.channelId === secret.id)).toEqual([]);
        expect(carolTyping.filter((t) => t.channelId === secret.id)).toEqual([]);
        expect((await r.channelsOf(carol)).map((c) => c.id)).not.toContain(secret.id);
        expect((await r.channelsOf(bob)).map((c) => c.id)).toContain(secret.id);
      });

      it('create-channel: members may not; private members must be in the room', async () => {
        const r = await room(['bob']);
        const [bob] = r.members;
        expectRefused(
          await request(bob.socket, C.createChannel, {
            workspaceId: r.workspaceId,
            name: 'mine',
            type: 'topic',
            isPrivate: true,
          }),
          'FORBIDDEN',
          ERRORS.FORBIDDEN,
        );
        const other = await room(['eve']);
        expectRefused(
          await request(r.owner.socket, C.createChannel, {
            workspaceId: r.workspaceId,
            name: 'leaky',
            type: 'topic',
            isPrivate: true,
            memberIds: [other.members[0]!.id],
          }),
          'USER_NOT_FOUND',
        );
        expect((await r.channelsOf(r.owner)).map((c) => c.name)).not.toContain('leaky');
      });

      it('update-channel-members: added members get channel-created, removed ones channel-deleted and lose access', async () => {
        const r = await room(['bob', 'carol']);
        const [bob, carol] = r.members;
        const secret = await r.createChannel(r.owner, 'inner', true, [bob.id]);
        const carolAdded = next<Channel>(carol.socket, S.channelCreated, (c) => c.id === secret.id);
        const bobUpdated = next<Channel>(bob.socket, S.channelUpdated, (c) => c.id === secret.id);
        const added = await request(r.owner.socket, C.updateChannelMembers, {
          channelId: secret.id,
          workspaceId: r.workspaceId,
          add: [carol.id],
        });
        expect(added.success, JSON.stringify(added)).toBe(true);
        expect((await carolAdded).memberIds).toContain(carol.id);
        expect((await bobUpdated).memberIds).toContain(carol.id);
        expect((await request(carol.socket, C.typingStart, { channelId: secret.id })).success).toBe(true);
        await expect
          .poll(async () => (await request(carol.socket, C.fetchMessages, { channelId: secret.id })).success, {
            timeout: 10_000,
          })
          .toBe(true);

        const bobRemoved = next<{ channelId: string }>(bob.socket, S.channelDeleted, (p) => p.channelId === secret.id);
        const removed = await request(r.owner.socket, C.updateChannelMembers, {
          channelId: secret.id,
          workspaceId: r.workspaceId,
          remove: [bob.id],
        });
        expect(removed.success, JSON.stringify(removed)).toBe(true);
        expect(removed.success && removed.channel.memberIds).not.toContain(bob.id);
        await bobRemoved;
        expectRefused(await request(bob.socket, C.typingStart, { channelId: secret.id }), 'NOT_A_MEMBER');
        await expect
          .poll(async () => (await request(bob.socket, C.fetchMessages, { channelId: secret.id })).success, {
            timeout: 10_000,
          })
          .toBe(false);
        expect((await r.channelsOf(bob)).map((c) => c.id)).not.toContain(secret.id);
        const bobMessages = collect<{ channelId: string }>(bob.socket, S.message);
        expect((await r.send(carol, secret.id, 'bob is gone')).success).toBe(true);
        await r.messageBarrier([bob.socket]);
        expect(bobMessages.filter((m) => m.channelId === secret.id)).toEqual([]);
      });

      it('update-channel-members refusals: a member, a public channel, someone outside the room', async () => {
        const r = await room(['bob', 'carol']);
        const [bob, carol] = r.members;
        const secret = await r.createChannel(r.owner, 'closed', true, [bob.id]);
        const open = await r.createChannel(r.owner, 'open');
        expectRefused(
          await request(bob.socket, C.updateChannelMembers, {
            channelId: secret.id,
            workspaceId: r.workspaceId,
            add: [carol.id],
          }),
          'FORBIDDEN',
        );
        expectRefused(
          await request(r.owner.socket, C.updateChannelMembers, {
            channelId: open.id,
            workspaceId: r.workspaceId,
            add: [carol.id],
          }),
          'VALIDATION',
        );
        expectRefused(
          await request(r.owner.socket, C.updateChannelMembers, {
            channelId: secret.id,
            workspaceId: r.workspaceId,
            add: ['stranger'],
          }),
          'USER_NOT_FOUND',
        );
        expect((await r.channelsOf(carol)).map((c) => c.id)).not.toContain(secret.id);
      });
    });

    describe('rename and delete', () => {
      it('rename-channel: channel-updated to everyone who can see it; max 30, unique; members refused', async () => {
        const r = await room(['bob', 'carol']);
        const [bob, carol] = r.members;
        const chan = await r.createChannel(r.owner, 'old-name');
        const updates = [r.owner.socket, bob.socket, carol.socket].map((s) =>
          next<Channel>(s, S.channelUpdated, (c) => c.id === chan.id),
        );
        const ack = await request(r.owner.socket, C.renameChannel, {
          channelId: chan.id,
          workspaceId: r.workspaceId,
          newName: '  new-name ',
        });
        expect(ack.success && ack.channel.name).toBe('new-name');
        for (const u of await Promise.all(updates)) expect(u.name).toBe('new-name');
        expect((await r.channelsOf(bob)).find((c) => c.id === chan.id)?.name).toBe('new-name');

        expectRefused(
          await request(r.owner.socket, C.renameChannel, {
            channelId: chan.id,
            workspaceId: r.workspaceId,
            newName: 'x'.repeat(31),
          }),
          'VALIDATION',
        );
        expectRefused(
          await request(bob.socket, C.renameChannel, {
            channelId: chan.id,
            workspaceId: r.workspaceId,
            newName: 'bobs',
          }),
          'FORBIDDEN',
          ERRORS.FORBIDDEN,
        );
        await r.createChannel(r.owner, 'taken');
        expectRefused(
          await request(r.owner.socket, C.renameChannel, {
            channelId: chan.id,
            workspaceId: r.workspaceId,
            newName: 'TAKEN',
          }),
          'CHANNEL_NAME_TAKEN',
        );
        const dm = await r.dm(r.owner, bob);
        expectRefused(
          await request(r.owner.socket, C.renameChannel, {
            channelId: dm.id,
            workspaceId: r.workspaceId,
            newName: 'ours',
          }),
          'VALIDATION',
        );

        // A private channel's rename reaches its members only.
        const secret = await r.createChannel(r.owner, 'hush', true, [bob.id]);
        const carolUpdates = collect<Channel>(carol.socket, S.channelUpdated);
        const bobSees = next<Channel>(bob.socket, S.channelUpdated, (c) => c.id === secret.id);
        expect(
          (
            await request(r.owner.socket, C.renameChannel, {
              channelId: secret.id,
              workspaceId: r.workspaceId,
              newName: 'hushed',
            })
          ).success,
        ).toBe(true);
        expect((await bobSees).name).toBe('hushed');
        await r.roomBarrier([carol.socket]);
        expect(carolUpdates.filter((c) => c.id === secret.id)).toEqual([]);
        expect((await r.channelsOf(bob)).find((c) => c.id === chan.id)?.name).toBe('new-name');
      });

      it('delete-channel: channel-deleted to everyone; members refused; its messages are gone', async () => {
        const r = await room(['bob', 'carol']);
        const [bob, carol] = r.members;
        const doomed = await r.createChannel(r.owner, 'doomed');
        expect((await r.send(bob, doomed.id, 'last words')).success).toBe(true);
        expectRefused(
          await request(bob.socket, C.deleteChannel, { channelId: doomed.id, workspaceId: r.workspaceId }),
          'FORBIDDEN',
          ERRORS.FORBIDDEN,
        );
        const dm = await r.dm(r.owner, bob);
        expectRefused(
          await request(r.owner.socket, C.deleteChannel, { channelId: dm.id, workspaceId: r.workspaceId }),
          'VALIDATION',
        );

        const deleted = [bob.socket, carol.socket].map((s) =>
          next<{ channelId: string }>(s, S.channelDeleted, (p) => p.channelId === doomed.id),
        );
        expect(
          await request(r.owner.socket, C.deleteChannel, { channelId: doomed.id, workspaceId: r.workspaceId }),
        ).toEqual({ success: true, channelId: doomed.id });
        await Promise.all(deleted);
        expect((await r.channelsOf(carol)).map((c) => c.id)).not.toContain(doomed.id);
        expectRefused(await request(bob.socket, C.typingStart, { channelId: doomed.id }), 'CHANNEL_NOT_FOUND');
        await expect
          .poll(async () => (await request(bob.socket, C.fetchMessages, { channelId: doomed.id })).success, {
            timeout: 10_000,
          })
          .toBe(false);
        expect((await request(bob.socket, C.joinChannel, { channelId: doomed.id })).success).toBe(false);
        expect((await r.send(bob, doomed.id, 'anyone?')).success).toBe(false);
        expectRefused(
          await request(r.owner.socket, C.deleteChannel, { channelId: doomed.id, workspaceId: r.workspaceId }),
          'CHANNEL_NOT_FOUND',
        );

        // A private channel's deletion reaches its members only.
        const secret = await r.createChannel(r.owner, 'quiet', true, [bob.id]);
        const carolDeleted = collect<{ channelId: string }>(carol.socket, S.channelDeleted);
        const bobDeleted = next<{ channelId: string }>(bob.socket, S.channelDeleted, (p) => p.channelId === secret.id);
        expect(
          (await request(r.owner.socket, C.deleteChannel, { channelId: secret.id, workspaceId: r.workspaceId }))
            .success,
        ).toBe(true);
        await bobDeleted;
        await r.roomBarrier([carol.socket]);
        expect(carolDeleted.filter((p) => p.channelId === secret.id)).toEqual([]);
      });
    });

    memberTests(room);
    channelNameTests(room);
  });
}
