/** MessagingApi over HTTP, for the gateway in distributed mode: each method posts { actor, input } to its internal route. */
import { INTERNAL, type ChannelSummary, type Message, type MessagingApi, type SessionActor } from '@ephemera/proto';
import { serviceClient, type ServiceCredential } from '@ephemera/platform';

type Input<M extends keyof MessagingApi> = Parameters<MessagingApi[M]>[1];
type Answer<M extends keyof MessagingApi> = Awaited<ReturnType<MessagingApi[M]>>;

export class MessagingClient implements MessagingApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(baseUrl: string, credential: ServiceCredential) {
    this.call = serviceClient(baseUrl, credential, undefined, { batchPath: INTERNAL.messagingBatch });
  }

  sendMessage(actor: SessionActor, input: Input<'sendMessage'>) {
    return this.call<Message>(INTERNAL.sendMessage, { actor, input });
  }
  fetchMessages(actor: SessionActor, input: Input<'fetchMessages'>) {
    return this.call<Answer<'fetchMessages'>>(INTERNAL.fetchMessages, { actor, input });
  }
  joinChannel(actor: SessionActor, input: Input<'joinChannel'>) {
    return this.call<Answer<'joinChannel'>>(INTERNAL.joinChannel, { actor, input });
  }
  syncMessages(actor: SessionActor, input: Input<'syncMessages'>) {
    return this.call<Answer<'syncMessages'>>(INTERNAL.syncMessages, { actor, input });
  }
  editMessage(actor: SessionActor, input: Input<'editMessage'>) {
    return this.call<Message>(INTERNAL.editMessage, { actor, input });
  }
  deleteMessage(actor: SessionActor, input: Input<'deleteMessage'>) {
    return this.call<Answer<'deleteMessage'>>(INTERNAL.deleteMessage, { actor, input });
  }
  addReaction(actor: SessionActor, input: Input<'addReaction'>) {
    return this.call<Answer<'addReaction'>>(INTERNAL.addReaction, { actor, input });
  }
  markRead(actor: SessionActor, input: Input<'markRead'>) {
    return this.call<Answer<'markRead'>>(INTERNAL.markRead, { actor, input });
  }
  channelSummaries(actor: SessionActor) {
    return this.call<ChannelSummary[]>(INTERNAL.channelSummaries, { actor, input: {} });
  }
  searchMessages(actor: SessionActor, input: Input<'searchMessages'>) {
    return this.call<Message[]>(INTERNAL.searchMessages, { actor, input });
  }
}
