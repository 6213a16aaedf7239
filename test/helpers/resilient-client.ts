/**
 * A client that behaves like the frontend on a bad network (docs/protocol.md P2, P3): it reconnects, rejoins with
 * its token, fetches what it missed by sequence number, and resends unacknowledged messages with the same client
 * id. It records every message it has seen, deduplicated by id, so a test can count deliveries.
 */
import { io, type Socket } from 'socket.io-client';
import { C, S, type Message } from '@ephemera/proto';
import { clientId } from './clients.ts';

export class ResilientClient {
  readonly socket: Socket;
  readonly seen = new Map<string, Message>();
  /** raw deliveries (before dedupe), to prove the server sent no duplicates of one message live */
  liveDeliveries = 0;
  lastSeq = 0;
  /** sends answered with an error, by code (TIMEOUT: no answer in 5 s), for the failure drills' figures */
  readonly refusals = new Map<string, number>();
  private readonly pending = new Map<string, { channelId: string; content: string; resolve: (m: Message) => void }>();
  private joined = false;

  constructor(
    url: string,
    private readonly auth: { workspaceId: string; username: string; userToken: string },
  ) {
    this.socket = io(url, {
      transports: ['websocket'],
      reconnectionDelay: 200,
      reconnectionDelayMax: 1000,
      forceNew: true,
    });
    this.socket.on('connect', () => void this.rejoin());
    this.socket.on('disconnect', () => {
      this.joined = false;
    });
    this.socket.on(S.message, (m: Message) => {
      this.liveDeliveries++;
      this.accept(m);
    });
  }

  private accept(m: Message) {
    this.seen.set(m.id, m);
    if (m.seq === this.lastSeq + 1) this.lastSeq = m.seq;
    else if (m.seq > this.lastSeq + 1) void this.sync(); // a gap: fetch what is missing
  }

  private async rejoin() {
    const ack: any = await this.socket
      .timeout(10_000)
      .emitWithAck(C.joinWorkspace, this.auth)
      .catch(() => null);
    if (!ack?.success) {
      setTimeout(() => {
        if (this.socket.connected) void this.rejoin();
      }, 300);
      return;
    }
    this.joined = true;
    await this.sync();
    for (const [id, p] of this.pending) void this.trySend(id, p.channelId, p.content);
  }

  async sync() {
    for (;;) {
      const ack: any = await this.socket
        .timeout(10_000)
        .emitWithAck(C.syncMessages, { workspaceId: this.auth.workspaceId, afterSeq: this.lastSeq })
        .catch(() => null);
      if (!ack?.success) return;
      for (const m of ack.messages as Message[]) {
        this.seen.set(m.id, m);
        this.lastSeq = Math.max(this.lastSeq, m.seq);
      }
      if (!ack.hasMore) return;
    }
  }

  waitJoined(timeoutMs = 60_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      const check = () =>
        this.joined ? resolve() : Date.now() > end ? reject(new Error('not joined in time')) : setTimeout(check, 50);
      check();
    });
  }

  /** Resolves with the stored message once acknowledged, however many reconnects it takes. */
  send(channelId: string, content: string): Promise<Message> {
    const id = clientId();
    return new Promise((resolve) => {
      this.pending.set(id, { channelId, content, resolve });
      void this.trySend(id, channelId, content);
    });
  }

  private async trySend(id: string, channelId: string, content: string) {
    if (!this.joined) return; // resent after the next rejoin
    const ack: any = await this.socket
      .timeout(5_000)
      .emitWithAck(C.sendMessage, { clientMessageId: id, channelId, content, type: 'text' })
      .catch(() => null);
    const p = this.pending.get(id);
    if (!p) return;
    if (ack?.success) {
      this.pending.delete(id);
      p.resolve(ack.message);
      return;
    }
    const code: string = ack?.code ?? 'TIMEOUT';
    this.refusals.set(code, (this.refusals.get(code) ?? 0) + 1);
    if (this.joined && this.socket.connected) setTimeout(() => void this.trySend(id, channelId, content), 300);
  }

  close() {
    this.socket.close();
  }
}
