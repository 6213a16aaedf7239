/**
 * The admin aggregate's write path: every superadmin action, configuration change and page view is an event on the
 * admin topic (aggregate ADMIN_AGGREGATE, sealed under its key like any other), durable in the log, then applied to
 * this service's read models (the consumer applies it again harmlessly: applyOnce).
 */
import {
  ADMIN_AGGREGATE,
  parsePayload,
  type AdminAction,
  type AnyEventEnvelope,
  type DomainEventPayload,
  type DomainEventType,
} from '@ephemera/proto';
import {
  createRecorder,
  makeEvent,
  systemActor,
  type EventLog,
  type Logger,
  type Pool,
  type Projector,
  type Recorder,
} from '@ephemera/platform';
import { nextAdminEventSequence } from './event-sequence-repository.ts';

export class AdminEvents {
  private readonly recorder: Recorder;

  constructor(
    private readonly pool: Pool,
    log: EventLog,
    private readonly now: () => Date,
    project: Projector,
    logger: Logger,
  ) {
    this.recorder = createRecorder({ log, readModel: { pool, schema: 'admin', project }, logger });
  }

  async record<T extends DomainEventType>(type: T, payload: DomainEventPayload<T>): Promise<AnyEventEnvelope> {
    const valid = parsePayload(type, payload);
    const seq = await nextAdminEventSequence(this.pool);
    const event = makeEvent(type, ADMIN_AGGREGATE, seq, valid, systemActor) as AnyEventEnvelope;
    await this.recorder.record([event]);
    return event;
  }

  /**
   * the audit trail: who (the superadmin's e-mail), what, on what (an account by its id, never its e-mail: the admin
   * topic's key is never destroyed), why
   */
  audit(
    admin: string,
    action: AdminAction,
    target: string | null,
    reason: string | null = null,
    details: Record<string, unknown> = {},
  ): Promise<AnyEventEnvelope> {
    return this.record('admin.action-recorded', {
      action,
      target,
      reason,
      admin,
      details,
      at: this.now().toISOString(),
    });
  }
}
