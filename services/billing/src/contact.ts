/**
 * Contact messages (POST /api/contact; docs/product/accounts.md A13): billing owns them, as it
 * owns accounts. A message is a domain event (contact.message-received on the billing topic, aggregate and partition
 * key: the message id), sealed under a data key of the message's own in the account key store, then projected into
 * billing.contact_messages (contact-repository.ts: the projection and the queries) for the admin's Feedback tab
 * (counts, status, delete: setStatus and remove below, for the admin area's routes). Removing a message destroys its key first and then records the readable tombstone: the name,
 * e-mail and text left in Kafka, WAL or a backup can no longer be read (docs/crypto.md).
 */
import {
  ContactBodySchema,
  ContactStatusSchema,
  DomainError,
  type ContactAnswer,
  type ContactCounts,
  type ContactMessageView,
  type ContactStatus,
} from '@ephemera/proto';
import {
  KeyedMutex,
  createRecorder,
  makeEvent,
  newId,
  parseOrThrow,
  systemActor,
  type EventLog,
  type Logger,
  type Pool,
  type Recorder,
  type RoomKeyStore,
} from '@ephemera/platform';
import { contactCounts, contactPage, contactRow, projectContact, view } from './contact-repository.ts';

export interface ContactDeps {
  pool: Pool;
  log: EventLog;
  logger: Logger;
  /** one key per message (the account key store): created before the message is recorded, destroyed on removal */
  keys: RoomKeyStore;
  now?: () => Date;
}

export class ContactMessages {
  private readonly mutex = new KeyedMutex();
  private readonly now: () => Date;
  /** durable in the log, then applied to the read model (the billing projection applies the same events on replay) */
  private readonly recorder: Recorder;

  constructor(private readonly deps: ContactDeps) {
    this.now = deps.now ?? (() => new Date());
    this.recorder = createRecorder({
      log: deps.log,
      readModel: { pool: deps.pool, schema: 'billing', project: projectContact },
      logger: deps.logger,
    });
  }

  /**
   * The form's message: validated first (a 400 names the field), then `admit` (the caller's rate limit: only
   * messages that would be stored count), then recorded. Answers once it is durable and in the read model.
   */
  async receive(body: unknown, admit: () => Promise<void> = async () => {}): Promise<ContactAnswer> {
    const input = parseOrThrow(ContactBodySchema, body);
    await admit();
    const id = `ctm_${newId(20)}`;
    const receivedAt = this.now().toISOString();
    await this.deps.keys.create(id);
    try {
      await this.recorder.record([
        makeEvent('contact.message-received', id, 1, { messageId: id, ...input, receivedAt }, systemActor),
      ]);
    } catch (err) {
      await this.deps.keys.destroy(id).catch(() => {}); // nothing was stored: no key left behind either
      throw err;
    }
    this.deps.logger.info({ contactMessageId: id, category: input.category }, 'contact message received');
    return { success: true, id, receivedAt };
  }

  /** newest first (the Feedback tab shows a page at a time); status: only those */
  async list(opts: { limit?: number; offset?: number; status?: ContactStatus } = {}): Promise<ContactMessageView[]> {
    return contactPage(this.deps.pool, opts);
  }

  async byId(id: string): Promise<ContactMessageView | null> {
    const row = await contactRow(this.deps.pool, id);
    return row ? view(row) : null;
  }

  /** the Feedback tab's counts: total and per status */
  async counts(): Promise<ContactCounts> {
    return contactCounts(this.deps.pool);
  }

  /** The admin's status dropdown: pending, read, responded, archived, set freely. Same status: nothing recorded. */
  async setStatus(id: string, status: unknown): Promise<ContactMessageView> {
    const next = parseOrThrow(ContactStatusSchema, status);
    return this.mutex.run(id, async () => {
      const current = await contactRow(this.deps.pool, id);
      if (!current) throw new DomainError('MESSAGE_NOT_FOUND');
      if (current.status !== next) {
        await this.recorder.record([
          makeEvent(
            'contact.message-status-changed',
            id,
            current.lastSeq + 1,
            { messageId: id, status: next, changedAt: this.now().toISOString() },
            systemActor,
          ),
        ]);
      }
      return view((await contactRow(this.deps.pool, id))!);
    });
  }

  /** Removal: the message's key is destroyed first, then the readable tombstone drops the row. */
  async remove(id: string): Promise<void> {
    await this.mutex.run(id, async () => {
      const current = await contactRow(this.deps.pool, id);
      if (!current) throw new DomainError('MESSAGE_NOT_FOUND');
      await this.deps.keys.destroy(id);
      await this.recorder.record([
        makeEvent(
          'contact.message-deleted',
          id,
          current.lastSeq + 1,
          { messageId: id, deletedAt: this.now().toISOString() },
          systemActor,
        ),
      ]);
    });
  }
}
