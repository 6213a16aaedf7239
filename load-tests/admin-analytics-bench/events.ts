/**
 * The events the admin-analytics bench feeds: message.sent for the lag figure (a), and a year of a busy instance's
 * events (rooms, joins, files, sign-ups, payments, page views, messages) for the dashboard loads (b).
 */
import { randomUUID } from 'node:crypto';
import { type Actor, type AnyEventEnvelope, type DomainEventPayload, type DomainEventType } from '@ephemera/proto';
import { makeEvent, systemActor, userActor } from '@ephemera/platform';

let seq = 0;
const event = <T extends DomainEventType>(
  type: T,
  aggregateId: string,
  payload: DomainEventPayload<T>,
  at: Date,
  actor: Actor = systemActor,
) => ({ ...makeEvent(type, aggregateId, ++seq, payload, actor), occurredAt: at.toISOString() }) as AnyEventEnvelope;
export const message = (workspaceId: string, authorId: string, at: Date) =>
  event(
    'message.sent',
    workspaceId,
    {
      message: {
        id: randomUUID(),
        clientMessageId: randomUUID(),
        workspaceId,
        channelId: 'general',
        seq: ++seq,
        authorId,
        authorName: authorId,
        profilePicture: null,
        timestamp: at.toISOString(),
        type: 'text',
        content: 'hello there',
        isEdited: false,
        replyTo: null,
        reactions: {},
        linkPreview: null,
        editedAt: null,
        file: null,
      },
      audience: { kind: 'workspace' },
    },
    at,
    userActor(authorId),
  );

/** One generated event of the 1,000,000: the mix of a year of a busy instance. */
export function* yearOfEvents(total: number, now: Date): Generator<AnyEventEnvelope> {
  const rooms: { id: string; members: string[] }[] = [];
  const accounts: string[] = [];
  const at = () => new Date(now.getTime() - Math.floor(Math.random() * 365 * 86_400_000));
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  for (let i = 0; i < total; i++) {
    const slot = i % 100;
    const when = at();
    if (slot < 2 || rooms.length === 0) {
      const id = `r${rooms.length}`;
      const owner = `${id}-m0`;
      rooms.push({ id, members: [owner] });
      yield event(
        'workspace.created',
        id,
        {
          workspaceId: id,
          name: `room ${id}`,
          nameKey: `room ${id}`,
          tier: slot === 1 ? 'pro' : 'free',
          createdAt: when.toISOString(),
          expiresAt: new Date(when.getTime() + 86_400_000).toISOString(),
          passwordHash: null,
          createdBy: owner,
        },
        when,
        userActor(owner),
      );
    } else if (slot < 6) {
      const room = pick(rooms);
      const userId = `${room.id}-m${room.members.length}`;
      room.members.push(userId);
      yield event(
        'member.joined',
        room.id,
        {
          workspaceId: room.id,
          userId,
          username: userId,
          isAdmin: false,
          tokenHash: 'h',
          joinedAt: when.toISOString(),
        },
        when,
        userActor(userId),
      );
    } else if (slot < 8) {
      const room = pick(rooms);
      const by = pick(room.members);
      yield event(
        'file.uploaded',
        `f${i}`,
        {
          workspaceId: room.id,
          fileId: `f${i}`,
          channelId: 'general',
          uploaderId: by,
          purpose: 'message',
          kind: 'image',
          name: 'a.png',
          mime: 'image/png',
          size: 1000,
          caption: null,
          durationMs: null,
          width: 10,
          height: 10,
          storageKey: 'k',
          thumbnailKey: null,
          thumbnailSize: null,
          fileKey: 'fk',
          uploadedAt: when.toISOString(),
          expiresAt: null,
        },
        when,
        userActor(by),
      );
    } else if (slot === 8 || accounts.length === 0) {
      const id = `acc_${accounts.length}`;
      accounts.push(id);
      yield event(
        'account.registered',
        id,
        {
          accountId: id,
          email: `${id}@bench.test`,
          username: id,
          tier: 'free',
          googleId: null,
          picture: null,
          registeredAt: when.toISOString(),
        },
        when,
      );
    } else if (slot === 9) {
      const accountId = pick(accounts);
      const ref = { provider: 'stripe' as const, providerEventId: null };
      yield i % 3 === 0
        ? event(
            'account.extension-paid',
            accountId,
            { accountId, roomId: pick(rooms).id, days: i % 2 ? 7 : 30, orderId: `o${i}`, amountCents: null, ...ref },
            when,
          )
        : event(
            'account.subscription-activated',
            accountId,
            {
              accountId,
              tier: i % 2 ? 'pro' : 'business',
              subscriptionId: `sub_${i}`,
              customerId: null,
              currentPeriodEnd: new Date(when.getTime() + 30 * 86_400_000).toISOString(),
              cancelAtPeriodEnd: false,
              ...ref,
            },
            when,
          );
    } else if (slot < 20) {
      yield event(
        'analytics.page-viewed',
        'admin',
        {
          path: pick(['/', '/features', '/upgrade', `/${pick(rooms).id}`]),
          visitor: `v${Math.floor(Math.random() * 50_000)}`,
          at: when.toISOString(),
        },
        when,
      );
    } else {
      const room = pick(rooms);
      yield message(room.id, pick(room.members), when);
    }
  }
}
