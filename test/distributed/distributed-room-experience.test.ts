import { roomExperienceSuites } from '../suites/room-experience.ts';
import { INTERNAL, type Tier } from '@ephemera/proto';
import { serviceCredential } from '@ephemera/platform';
import { roomClient } from '@ephemera/room';
import { messagingClient } from '@ephemera/messaging';
import { startDistributedStack } from './stack.ts';
import { startVersitygw } from '../helpers/versitygw.ts';

roomExperienceSuites('distributed (Kafka, Postgres, Redis; A and B on different gateway replicas)', async () => {
  // Files live in S3 when distributed: a real S3-compatible server (versitygw) of this stack's own.
  const s3 = await startVersitygw();
  const stack = await startDistributedStack({ s3 });
  // change-tier is an internal route of the room service: called here as billing would, on its internal listener, signed.
  const changeTier = async (workspaceId: string, tier: Tier) => {
    await stack.roomInternalCall(INTERNAL.changeTier, { workspaceId, tier, reason: 'test' });
  };
  // The services as the gateways call them: on their internal listeners, signed with the stack's service credential.
  const credential = serviceCredential('gateway', stack.serviceSecret);
  const services = {
    rooms: roomClient(stack.internal.room, credential),
    messaging: messagingClient(stack.internal.messaging, credential),
  };
  return {
    url: stack.urlA,
    urlB: stack.urlB,
    advanceClock: stack.advanceClock,
    changeTier,
    storedObjects: stack.storedObjects,
    readStoredObject: stack.readStoredObject,
    services,
    stop: async () => {
      await stack.stop();
      await s3.stop();
    },
  };
});
