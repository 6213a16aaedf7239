/**
 * What a row of the command table (commands.ts) is: its fields, and the ack marker that carries the row's ack type.
 * Apart from the table so the table reads as its rows.
 */
import type { z } from 'zod';
import type { NoFields } from './socket-answers.ts';

/** The services whose port serves commands; `gateway`: the gateway's own handler (it asks the room to authorize). */
export type CommandOwner = 'room' | 'messaging' | 'gateway';

declare const ackData: unique symbol;
/** A row's ack data on success, carried in its type only (AckOf reads it back); made by ack(). */
export interface AckType<T> {
  readonly [ackData]: () => T;
}
const ACK_TYPE = Object.freeze({});
/**
 * The `ack` of a command row: `ack<{ channel: Channel }>()`; `ack()` when the success carries nothing more (its own
 * signature: a default type argument would give way to the table's contextual AckType<unknown>).
 */
export function ack(): AckType<NoFields>;
export function ack<T>(): AckType<T>;
export function ack<T>(): AckType<T> {
  return ACK_TYPE as AckType<T>;
}

export interface CommandRow {
  readonly schema: z.ZodTypeAny;
  readonly owner: CommandOwner;
  /** it changes durable state (an event in the log or a stored row): refused while maintenance is on */
  readonly writes: boolean;
  /** the ack's field that carries the owner's answer; absent: the answer is the ack's data itself */
  readonly answer?: string;
  /** the gateway does work of its own around the owner's call (a hand-written handler in gateway/src/commands.ts) */
  readonly gatewayWork?: true;
  /** the payload's userId names the member acted on; absent: a userId in it must be the actor's own (P5) */
  readonly userIdNamesTarget?: true;
  /** the ack's data on success (ack<...>()): the ack is { success: true, ...data } or an ErrorBody */
  readonly ack: AckType<unknown>;
}
