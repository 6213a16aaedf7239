/**
 * Billing's calls to the room service over HTTP (distributed mode; embedded passes the room service's RoomOwnership).
 * ACCOUNT_INTERNAL routes, on the room service's internal listener (signed calls). The other direction: room/src/account-sessions.ts.
 */
import { ACCOUNT_INTERNAL, type AccountRoomsApi } from '@ephemera/proto';
import { serviceClient, type ServiceCredential } from '@ephemera/platform';

/** Billing's view of the room service. */
export class AccountRoomsClient implements AccountRoomsApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(roomUrl: string, credential: ServiceCredential) {
    this.call = serviceClient(roomUrl, credential);
  }
  claimWorkspace(input: Parameters<AccountRoomsApi['claimWorkspace']>[0]) {
    return this.call<Awaited<ReturnType<AccountRoomsApi['claimWorkspace']>>>(ACCOUNT_INTERNAL.claimWorkspace, input);
  }
  roomsOfAccount(input: { accountId: string }) {
    return this.call<Awaited<ReturnType<AccountRoomsApi['roomsOfAccount']>>>(ACCOUNT_INTERNAL.roomsOfAccount, input);
  }
  ownerToken(input: { accountId: string; roomName: string }) {
    return this.call<Awaited<ReturnType<AccountRoomsApi['ownerToken']>>>(ACCOUNT_INTERNAL.ownerToken, input);
  }
  deleteRoomsOfAccount(input: { accountId: string }) {
    return this.call<{ deleted: string[] }>(ACCOUNT_INTERNAL.deleteRoomsOfAccount, input);
  }
  changeTierOfAccount(input: Parameters<AccountRoomsApi['changeTierOfAccount']>[0]) {
    return this.call<{ changed: string[] }>(ACCOUNT_INTERNAL.changeTierOfAccount, input);
  }
  extendPaid(input: Parameters<AccountRoomsApi['extendPaid']>[0]) {
    return this.call<Awaited<ReturnType<AccountRoomsApi['extendPaid']>>>(ACCOUNT_INTERNAL.extendPaid, input);
  }
}
