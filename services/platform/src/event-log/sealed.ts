/**
 * Crypto-shredding of the event log (docs/crypto.md). A decorator, like namespaced.ts, so every adapter gets it and
 * the services never see a sealed payload:
 *  - append: every event's payload is replaced by `{ workspaceId, sealed }`, the payload sealed under its room's key
 *    (AES-256-GCM, the event id as AAD so a ciphertext cannot be moved to another record). Only workspace.deleted and
 *    workspace.expired stay readable: they are recorded after the key is destroyed and every consumer must act on
 *    them. An event for a room whose key is gone is refused (WORKSPACE_NOT_FOUND): the room no longer exists.
 *  - delivery: the payload is opened and validated (parsePayload) before the handler sees it. A record whose key is
 *    gone belongs to a deleted room: it is skipped (handler not called, position committed), which is also what a
 *    replay of the log does for every deleted room. If the key source is unavailable (the room service is down) the
 *    lookup throws and the adapter delivers the record again later.
 *  - every process forgets a room's key when workspace.deleted / workspace.expired reaches it.
 *  - with a MessageKeyStore (message-keys.ts), a message's body is sealed under the message's own key inside the
 *    room-sealed payload (message-bodies.ts); its key is created and stored before the append. Delivered without
 *    the message's key (deleted message, or no store), the payload comes without its body and `bodyGone: true`.
 * Records this process just appended are handed to its own subscribers from memory (their plaintext, by event id),
 * so the embedded mode does not open what it sealed a moment ago.
 */
import {
  DomainError,
  isSealedPayload,
  parsePayload,
  partitionKeyOf,
  type AnyEventEnvelope,
  type DomainEventType,
  type SealedPayload,
  type Topic,
} from '@ephemera/proto';
import type { RoomKeyring } from '../crypto/keyring.ts';
import type { RoomKey } from '../crypto/room-key.ts';
import type { MessageKeyStore } from './message-keys.ts';
import { hasSealedBody, isMessageBodyEvent, messageIdOf, openBody, sealBody } from './message-bodies.ts';
import type { Logger } from '../log.ts';
import type { Delivery, EventLog, LogRecord, SubscribeOptions, Subscription } from './port.ts';
import { roomEncryptionOn } from '../config-vars.ts';

/** Recorded after the room's key is destroyed: they stay readable so every consumer can remove the room. */
/** account.deleted likewise, after the account's key (billing seals account events under one key per account), and
 *  contact.message-deleted after the contact message's key. */
const KEY_DESTROYED_TYPES: ReadonlySet<DomainEventType> = new Set([
  'workspace.deleted',
  'workspace.expired',
  'account.deleted',
  'contact.message-deleted',
]);
/** admin.maintenance-changed too: every process that takes writes reads it (platform/maintenance.ts), and it holds
 *  nothing personal (on or off, and the banner's text), so no service needs the admin key for it. */
const CLEAR_TYPES: ReadonlySet<DomainEventType> = new Set([...KEY_DESTROYED_TYPES, 'admin.maintenance-changed']);

export interface SealedEventLogOptions {
  /** plaintext payloads of this process's own recent appends kept for its subscribers (by event id) */
  recentPlaintext?: number;
  /** a record that does not open under its room's key (tampered, or sealed under another key) is logged and skipped */
  logger?: Logger;
  /** per-message keys for message bodies (message-keys.ts); absent: bodies are sealed under the room key only */
  messageKeys?: MessageKeyStore;
}

interface Plain {
  workspaceId: string;
  payload: unknown;
}

export class SealedEventLog implements EventLog {
  private readonly recent = new Map<string, Plain>();
  private readonly maxRecent: number;

  constructor(
    private readonly inner: EventLog,
    private readonly keyring: RoomKeyring,
    private readonly options: SealedEventLogOptions = {},
  ) {
    this.maxRecent = options.recentPlaintext ?? 20_000;
  }

  init(topics: Topic[]): Promise<void> {
    return this.inner.init(topics);
  }

  async append(records: LogRecord[]): Promise<void> {
    const messageKeys = await this.messageKeysFor(records);
    const sealed = await Promise.all(records.map((r) => this.seal(r, messageKeys.get(r.event.id))));
    await this.inner.append(sealed);
  }

  /**
   * The message keys of the records' message events, by event id: new ones for sent messages (created and stored
   * in one call per room), the stored one for an edit (none: the message was deleted meanwhile).
   */
  private async messageKeysFor(records: LogRecord[]): Promise<Map<string, RoomKey>> {
    const byEvent = new Map<string, RoomKey>();
    const store = this.options.messageKeys;
    if (!store) return byEvent;
    const rooms = new Map<string, { sent: AnyEventEnvelope[]; edited: AnyEventEnvelope[] }>();
    for (const { event } of records) {
      if (!isMessageBodyEvent(event.type)) continue;
      const room = rooms.get(partitionKeyOf(event)) ?? { sent: [], edited: [] };
      (event.type === 'message.sent' ? room.sent : room.edited).push(event);
      rooms.set(partitionKeyOf(event), room);
    }
    for (const [workspaceId, { sent, edited }] of rooms) {
      const roomKey = await this.keyring.key(workspaceId);
      if (!roomKey) throw new DomainError('WORKSPACE_NOT_FOUND');
      const idOf = (e: AnyEventEnvelope) => messageIdOf(e.type as 'message.sent', e.payload);
      if (sent.length && store.create) {
        const created = await store.create(roomKey, sent.map(idOf));
        for (const e of sent) byEvent.set(e.id, created.get(idOf(e))!);
      }
      if (edited.length) {
        const found = await store.get(roomKey, edited.map(idOf));
        for (const e of edited) {
          const key = found.get(idOf(e));
          if (!key) throw new DomainError('MESSAGE_NOT_FOUND'); // deleted while the edit was decided
          byEvent.set(e.id, key);
        }
      }
    }
    return byEvent;
  }

  private async seal(record: LogRecord, messageKey: RoomKey | undefined): Promise<LogRecord> {
    const event = record.event;
    if (CLEAR_TYPES.has(event.type)) return record;
    const workspaceId = partitionKeyOf(event);
    const key = await this.keyring.key(workspaceId);
    if (!key) throw new DomainError('WORKSPACE_NOT_FOUND'); // destroyed: the room was deleted or expired
    // Remembered before the append: the embedded log hands committed records to subscribers as it resolves.
    this.remember(event.id, { workspaceId, payload: event.payload });
    const inner =
      messageKey && isMessageBodyEvent(event.type)
        ? sealBody(event.type, event.id, event.payload, messageKey)
        : event.payload;
    const payload: SealedPayload = { workspaceId, sealed: key.sealJson(inner, event.id) };
    return { ...record, event: { ...event, payload } as unknown as AnyEventEnvelope };
  }

  private remember(eventId: string, plain: Plain): void {
    if (this.maxRecent <= 0) return;
    if (this.recent.size >= this.maxRecent) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(eventId, plain);
  }

  subscribe(options: SubscribeOptions): Promise<Subscription> {
    const { handleMany } = options;
    return this.inner.subscribe({
      ...options,
      handler: (delivery) => this.deliver(delivery, options.handler),
      handleMany: handleMany && ((deliveries) => this.deliverMany(deliveries, handleMany)),
    });
  }

  /**
   * Several records at once: opened in order and handed over together, except that a key-destroying record
   * (workspace.deleted / .expired) ends a run: the records before it are handled while the room's key still opens
   * them, the rest after the key is forgotten.
   */
  private async deliverMany(
    deliveries: Delivery[],
    handleMany: NonNullable<SubscribeOptions['handleMany']>,
  ): Promise<void> {
    let run: Delivery[] = [];
    const messageKeys = await this.prefetchMessageKeys(deliveries);
    for (const delivery of deliveries) {
      if (KEY_DESTROYED_TYPES.has(delivery.event.type)) {
        if (run.length) await handleMany(run);
        run = [];
        await this.deliver(delivery, (d) => handleMany([d]));
        continue;
      }
      const opened = await this.open(delivery, messageKeys);
      if (opened) run.push(opened);
    }
    if (run.length) await handleMany(run);
  }

  /**
   * The message keys of the records' message bodies, one lookup per room for the whole batch instead of one per
   * record (a replica catching up, a replay); a key found missing is recorded as such (undefined).
   */
  private async prefetchMessageKeys(deliveries: Delivery[]): Promise<Map<string, RoomKey | undefined>> {
    const found = new Map<string, RoomKey | undefined>();
    const store = this.options.messageKeys;
    if (!store) return found;
    const wanted = new Map<string, { key: RoomKey; ids: string[] }>();
    for (const { event } of deliveries) {
      if (!isMessageBodyEvent(event.type) || !isSealedPayload(event.payload) || this.recent.has(event.id)) continue;
      const { workspaceId, sealed } = event.payload;
      const key = this.keyring.isGone(workspaceId) ? null : await this.keyring.key(workspaceId);
      if (!key) continue;
      let opened: unknown;
      try {
        opened = key.openJson(sealed, event.id);
      } catch {
        continue; // open() logs and skips it
      }
      if (!hasSealedBody(opened)) continue;
      const room = wanted.get(workspaceId) ?? { key, ids: [] };
      room.ids.push(messageIdOf(event.type, opened));
      wanted.set(workspaceId, room);
    }
    for (const { key, ids } of wanted.values()) {
      const keys = await store.get(key, ids);
      for (const id of ids) found.set(id, keys.get(id));
    }
    return found;
  }

  private async deliver(delivery: Delivery, handler: SubscribeOptions['handler']): Promise<void> {
    const event = delivery.event;
    if (!isSealedPayload(event.payload)) {
      // workspace.deleted / workspace.expired (or a record written before rooms had keys): as it is
      await handler(delivery);
      if (KEY_DESTROYED_TYPES.has(event.type)) this.keyring.forget(partitionKeyOf(event));
      return;
    }
    const opened = await this.open(delivery);
    if (opened) await handler(opened);
  }

  /** The record with its payload opened; null when there is nothing to hand over (the room's key is gone). */
  private async open(delivery: Delivery, prefetched?: Map<string, RoomKey | undefined>): Promise<Delivery | null> {
    const event = delivery.event;
    if (!isSealedPayload(event.payload)) return delivery;
    const { workspaceId, sealed } = event.payload;
    if (this.keyring.isGone(workspaceId)) return null; // a deleted room's record: nothing to hand over
    let payload = this.recent.get(event.id)?.payload;
    if (payload === undefined) {
      const key = await this.keyring.key(workspaceId); // throws when the key source is down: delivered again later
      if (!key) return null;
      const skip = (err: unknown) => {
        this.options.logger?.error(
          { err: { message: (err as Error).message }, eventId: event.id, type: event.type, workspaceId },
          'sealed event does not open under its room key; skipped',
        );
        return null;
      };
      let opened: unknown;
      try {
        opened = key.openJson(sealed, event.id);
      } catch (err) {
        return skip(err);
      }
      // a message's body: its own key, outside the try (a key source that is down throws: delivered again later)
      const body = isMessageBodyEvent(event.type) && hasSealedBody(opened) ? event.type : null;
      const messageId = body ? messageIdOf(body, opened) : '';
      const messageKey = !body
        ? undefined
        : prefetched?.has(messageId)
          ? prefetched.get(messageId)
          : (await this.options.messageKeys?.get(key, [messageId]))?.get(messageId);
      try {
        if (body && hasSealedBody(opened)) opened = openBody(body, event.id, opened, messageKey);
        payload = parsePayload(event.type, opened);
      } catch (err) {
        return skip(err);
      }
    }
    return { ...delivery, event: { ...event, payload } as AnyEventEnvelope };
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * The event log with the room's payloads sealed, unless ROOM_ENCRYPTION=off: that switch exists only so the
 * benchmark can measure what encryption costs (load-tests/README.md); never set it in a deployment.
 */
export function sealedEventLog(inner: EventLog, keyring: RoomKeyring, options: SealedEventLogOptions = {}): EventLog {
  return roomEncryptionOn() ? new SealedEventLog(inner, keyring, options) : inner;
}
