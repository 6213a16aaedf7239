/** RoomApi over HTTP, for the gateway in distributed mode. */
import { INTERNAL, type RoomApi, type SessionActor, type Channel, type RoomUser, type Workspace } from '@ephemera/proto';
import { serviceClient } from '@ephemera/platform';

export class RoomClient implements RoomApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(baseUrl: string) { this.call = serviceClient(baseUrl); }

  authenticate(input: Parameters<RoomApi['authenticate']>[0]) {
    return this.call<{ user: RoomUser; workspace: Workspace }>(INTERNAL.authenticate, input);
  }
  createChannel(actor: SessionActor, input: Parameters<RoomApi['createChannel']>[1]) {
    return this.call<Channel>(INTERNAL.createChannel, { actor, input });
  }
  getChannelForMember(actor: SessionActor, channelId: string) {
    return this.call<Channel>(INTERNAL.getChannelForMember, { actor, input: { channelId } });
  }
}
