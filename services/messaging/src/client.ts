/** MessagingApi over HTTP, for the gateway in distributed mode. */
import { INTERNAL, type Message, type MessagingApi, type SessionActor } from '@ephemera/proto';
import { serviceClient } from '@ephemera/platform';

export class MessagingClient implements MessagingApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(baseUrl: string) { this.call = serviceClient(baseUrl); }

  sendMessage(actor: SessionActor, input: Parameters<MessagingApi['sendMessage']>[1]) {
    return this.call<Message>(INTERNAL.sendMessage, { actor, input });
  }
  fetchMessages(actor: SessionActor, input: Parameters<MessagingApi['fetchMessages']>[1]) {
    return this.call<Awaited<ReturnType<MessagingApi['fetchMessages']>>>(INTERNAL.fetchMessages, { actor, input });
  }
  syncMessages(actor: SessionActor, input: Parameters<MessagingApi['syncMessages']>[1]) {
    return this.call<Awaited<ReturnType<MessagingApi['syncMessages']>>>(INTERNAL.syncMessages, { actor, input });
  }
}
