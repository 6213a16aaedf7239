/**
 * A send's ack from the event log. The ack means "durable", and a record this replica's fan-out reads from the log
 * is durable: Kafka hands consumers only records below the high watermark (every in-sync replica has them, the
 * same condition as the acks=all produce answer messaging waits for), the embedded log only committed rows. The
 * broker answers messaging's append and this replica's long-polled fetch at the same moment; messaging's answer
 * then still takes its own HTTP hop, and in a busy room it arrived after the fan-out of the very message it
 * acknowledges, so the ack queued behind hundreds of frames here and in the ingress.
 *
 * So a send waits for both: messaging's answer, and its own message (same room, author and client id) in the
 * fan-out; whichever comes first acks. The fan-out acks before it broadcasts, so the ack leaves ahead of the
 * room's copies. The author comes from the log record, written by messaging from the sender's session, so no
 * other user's message can answer it. What messaging alone knows still comes from messaging: a refusal (nothing
 * was appended), and a retried send that finds its stored message (nothing new is appended).
 */
import type { Message } from '@ephemera/proto';

type Logged = (message: Message) => void;

const keyOf = (workspaceId: string, authorId: string, clientMessageId: string) =>
  `${workspaceId}\u0000${authorId}\u0000${clientMessageId}`;

export class SentAcks {
  /** sends in flight on this replica, by room, author and client id (one user's tabs may send the same id) */
  private readonly waiting = new Map<string, Set<Logged>>();

  /** Call `onLogged` when the fan-out reads this send's message; the returned function stops waiting. */
  expect(send: { workspaceId: string; userId: string; clientMessageId: string }, onLogged: Logged): () => void {
    const key = keyOf(send.workspaceId, send.userId, send.clientMessageId);
    let waiters = this.waiting.get(key);
    if (!waiters) this.waiting.set(key, (waiters = new Set()));
    waiters.add(onLogged);
    return () => {
      waiters.delete(onLogged);
      if (waiters.size === 0 && this.waiting.get(key) === waiters) this.waiting.delete(key);
    };
  }

  /** The fan-out read this message from the log: its senders here are answered now, before it is broadcast. */
  logged(message: Message): void {
    if (this.waiting.size === 0) return; // most messages: nobody on this replica sent them
    const key = keyOf(message.workspaceId, message.authorId, message.clientMessageId);
    const waiters = this.waiting.get(key);
    if (!waiters) return;
    this.waiting.delete(key);
    for (const onLogged of waiters) onLogged(message);
  }
}
