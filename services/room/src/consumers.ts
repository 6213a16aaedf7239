/**
 * The room service's consumers of the log (module.ts subscribes them, in this order): the projection of its own
 * events (a replay rebuilds the read model; anything appended but not applied before a crash is applied), and the DM
 * policy, which reads messages to bring back a DM someone hid. Each is one subscription's options, so the module
 * only composes them.
 */
import { TOPICS } from '@ephemera/proto';
import { projectionHandlers, type Pool, type RoomKeyring, type SubscribeOptions } from '@ephemera/platform';
import type { RoomService } from './room-service.ts';
import { roomProjector } from './projection.ts';

/** room events -> the room read model; it must be current before the service takes commands */
export function roomProjectionConsumer(pool: Pool, keyring: RoomKeyring): SubscribeOptions {
  return {
    groupId: 'room-projection',
    topics: [TOPICS.room],
    fromBeginning: true,
    ...projectionHandlers(pool, 'room', roomProjector(keyring)),
  };
}

/**
 * The DM policy: a message in a DM someone hid brings it back for them (dm.reopened). A durable group of its own,
 * from the beginning, subscribed after the projection is current; the policy is idempotent, so redelivery is
 * harmless. It reads every message to act on a few.
 */
export function dmPolicyConsumer(service: RoomService): SubscribeOptions {
  return {
    groupId: 'room-dm-policy',
    topics: [TOPICS.messaging],
    fromBeginning: true,
    gather: true, // a hidden DM may come back a second or two after the message: fewer fetches per message
    handler: async ({ event }) => {
      // Only messages to a listed audience can be in a DM; public-channel messages cost nothing here.
      if (event.type === 'message.sent' && event.payload.audience.kind === 'users')
        await service.reopenDmAfterMessage(event.payload.message);
    },
  };
}
