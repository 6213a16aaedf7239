/**
 * One batch of a room's sends, the hot path (messaging-service.ts's sendMessage queues a send; the room's drain loop in
 * room-writes.ts hands everything queued here at once):
 *   checks each (room live, author a member, channel visible) -> dedupes by client id (one query) ->
 *   takes consecutive per-room sequence numbers -> appends all message.sent events at once (durable) ->
 *   answers each send -> applies them to the read model in one transaction before the room's next batch.
 * One batch at a time per room keeps sequence numbers gap-free and in log order; batching turns N sends that
 * arrive together into one durable write instead of N (a busy room is not capped by the disk's flush rate).
 * One messaging writer per room is assumed (partition ownership when scaled out; docs/architecture.md).
 * Apart from the service because it is the one long use case; what it decides is in send-decisions.ts.
 */
import { C, SOCKET_AUTHZ, type MessageLinkPreview } from '@ephemera/proto';
import type { Pool, Recorder, RoomKeyring } from '@ephemera/platform';
import { servingKey } from './sealed-messages.ts';
import type { AccessChecks, ChannelAccess } from './access.ts';
import { replyTargets, storedByClientIds } from './send-lookups.ts';
import { filesByIds } from './files/index.ts';
import { stageEnded } from './send-metrics.ts';
import type { RoomWrites } from './room-writes.ts';
import { accessKey, decideSends, type PendingSend } from './send-decisions.ts';
import { memberNames } from './member-names.ts';

/** What a batch uses of the service: its read model, keys, checks, the room's writes and the write path. */
export interface SendBatchContext {
  pool: Pool;
  keyring: RoomKeyring;
  access: AccessChecks;
  rooms: RoomWrites<PendingSend>;
  recorder: Recorder;
  now: () => Date;
  linkPreviews?: { cached(url: string): MessageLinkPreview | null };
}

export async function sendBatch(ctx: SendBatchContext, workspaceId: string, batch: PendingSend[]): Promise<void> {
  const { pool, keyring, rooms, recorder, now, linkPreviews } = ctx;
  const started = performance.now();
  for (const p of batch) stageEnded('queued', p.queuedAt);
  // 0. after a failed write: a retried send then finds its message (dedupe) and the sequence continues after it.
  await rooms.trustReadModel(workspaceId);
  // 1. checks, per (author, channel), each a single query; 2. dedupe: a retried send (same author and client id)
  //    answers the stored message, stored once; with the quoted messages, attached files and, when a text may
  //    mention someone, the members' names. Both run at once, on separate connections: a send's answer waits for
  //    the slower, not for their sum. The lookups cover the whole batch (what they find for a refused send is not
  //    used); a refusal is still answered before a missing key.
  const checks = new Map<string, PendingSend>();
  for (const p of batch) {
    const check = accessKey(p);
    if (!checks.has(check)) checks.set(check, p);
  }
  const checking = Promise.all(
    [...checks].map(
      async ([check, { actor, input }]) =>
        [
          check,
          await ctx.access.checkCanRead(actor, SOCKET_AUTHZ[C.sendMessage], input.channelId).catch((e: Error) => e),
        ] as const,
    ),
  );
  const looking = servingKey(keyring, workspaceId).then((key) =>
    Promise.all([
      storedByClientIds(pool, key, workspaceId, batch),
      replyTargets(pool, key, workspaceId, batch),
      filesByIds(
        pool,
        key,
        workspaceId,
        batch.flatMap((p) => (p.input.fileId ? [p.input.fileId] : [])),
      ),
      memberNames(
        pool,
        key,
        workspaceId,
        batch.map((p) => p.input.content),
      ),
    ]),
  );
  looking.catch(() => {}); // awaited below unless every send is refused
  const channels = new Map<string, ChannelAccess>();
  const refused = new Map<string, Error>();
  for (const [check, access] of await checking) {
    if (access instanceof Error) refused.set(check, access);
    else channels.set(check, access.channel);
  }
  const allowed: PendingSend[] = [];
  for (const p of batch) {
    const refusal = refused.get(accessKey(p));
    if (refusal) p.reject(refusal);
    else allowed.push(p);
  }
  if (allowed.length === 0) return;
  const [stored, quoted, uploads, members] = await looking;
  const checked = stageEnded('checks', started);

  // 3. replies, files, sequence numbers and events (send-decisions.ts)
  const { events, fresh, seq } = decideSends(
    workspaceId,
    allowed,
    { channels, stored, quoted, uploads, members },
    await rooms.currentSeq(workspaceId),
    now,
    linkPreviews,
  );
  if (events.length === 0) return;

  // 4. durable -> answered -> applied. The answer waits only for the log (the source of truth); the read model
  //    is brought up to date before this room's next batch runs, so a retried send still finds its message.
  const written = rooms.writeStarted(workspaceId);
  try {
    let appended = 0;
    const hooks = rooms.hooks(workspaceId);
    // when this throws (the append failed), the room's queue refuses the batch's sends
    await recorder.record(events, {
      ...hooks,
      appended: () => {
        appended = stageEnded('append', checked);
        rooms.appended(workspaceId, seq);
        for (const { message, waiters } of fresh) for (const w of waiters) w.resolve(message);
      },
      applied: (applied) => {
        hooks.applied(applied);
        stageEnded('apply', appended);
      },
    });
  } finally {
    written();
  }
}
