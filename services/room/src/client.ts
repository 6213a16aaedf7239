/**
 * RoomApi over HTTP, for the gateway in distributed mode: the room's commands from the command table (commandClient:
 * each posts { actor, input } to its route), and the checks the gateway asks for its own commands.
 */
import { INTERNAL, type RoomApi, type SessionActor } from '@ephemera/proto';
import { commandClient, serviceClient, type ServiceCredential } from '@ephemera/platform';

type Answer<M extends keyof RoomApi> = Awaited<ReturnType<RoomApi[M]>>;

export function roomClient(baseUrl: string, credential: ServiceCredential): RoomApi {
  const call = serviceClient(baseUrl, credential, undefined, { batchPath: INTERNAL.roomBatch });
  return {
    ...commandClient(call, 'room'),
    authenticate: (input) => call<Answer<'authenticate'>>(INTERNAL.authenticate, input),
    authorizePresence: (actor: SessionActor, input) =>
      call<Answer<'authorizePresence'>>(INTERNAL.authorizePresence, { actor, input }),
    authorizeCall: (actor: SessionActor, input) =>
      call<Answer<'authorizeCall'>>(INTERNAL.authorizeCall, { actor, input }),
    /** internal only: billing and tests inside the cluster */
    changeTier: (input) => call<Answer<'changeTier'>>(INTERNAL.changeTier, input),
  };
}
