/**
 * Who may try a room's password, and when (docs/security.md, "Room passwords"). Three rules, one place:
 *
 * - Per client address: at most `passwordFailuresPerAddress` wrong passwords a window. The try is counted before
 *   the password is looked at and given back when it was right (RateLimits.attempt), so a burst of concurrent
 *   guesses is evaluated at most that many times; past it the address is refused (429) for the rest of the window.
 * - Per room: never a lockout (anyone could lock a room's members out). Once a room has `passwordFailuresPerRoom`
 *   failures in its window, its password checks in this process are paced: one every ROOM_PACE_MS, in order, with
 *   the tries of addresses that have not failed lately going first. A distributed guesser gets a few guesses a
 *   second, and the right password is still accepted when its turn comes.
 * - Per process: at most SCRYPT_CONCURRENCY password derivations run at once (each takes ~16 MB and a libuv thread
 *   for ~50 ms), so a flood of guesses neither exhausts memory nor starves other work of the thread pool.
 *
 * The check runs outside the room's lock: members joining by token, and every command of the room, never wait
 * behind someone's password guesses.
 */
import PQueue from 'p-queue';
import { DomainError } from '@ephemera/proto';
import type { RateLimits } from '@ephemera/platform';
import { verifyPassword } from './password.ts';

const ROOM_PACE_MS = 250;
const SCRYPT_CONCURRENCY = 2;
/** tries waiting for one room's pace in this process; past it a try is refused as overload (never reached by people) */
const ROOM_QUEUE_MAX = 5_000;

export interface PasswordTry {
  roomId: string;
  address: string;
  password: string;
  /** the room's stored scrypt hash */
  stored: string;
  /** the request went away: stop waiting for a turn */
  signal?: AbortSignal;
}

/** Without limits (internal callers, tests of the room rules): the plain comparison; throws PASSWORD_WRONG. */
export async function plainPasswordCheck(password: string, stored: string): Promise<void> {
  if (!(await verifyPassword(password, stored))) throw new DomainError('PASSWORD_WRONG');
}

/** A try whose request went away while it waited never ran: nothing to count, and no server error to log. */
const goneAsRefusal = (err: unknown): unknown =>
  err instanceof Error && err.name === 'AbortError' ? new DomainError('RATE_LIMITED') : err;

const isWrong = (err: unknown) => err instanceof DomainError && err.code === 'PASSWORD_WRONG';

export class PasswordGuard {
  private readonly scrypt = new PQueue({ concurrency: SCRYPT_CONCURRENCY });
  private readonly paced = new Map<string, PQueue>();

  constructor(
    private readonly limits: RateLimits,
    private readonly paceMs = ROOM_PACE_MS,
  ) {}

  /** Checks one password; throws PASSWORD_WRONG, or RATE_LIMITED for the address. */
  readonly check = (t: PasswordTry): Promise<void> =>
    this.limits.attempt('passwordFailuresPerAddress', t.address, () => this.evaluate(t), isWrong);

  private evaluate(t: PasswordTry): Promise<void> {
    // The room's try is counted before it is evaluated (given back if right), so a burst is paced from its first
    // try past the limit, not after the failures of everything already in flight have come back.
    return this.limits.tally(
      'passwordFailuresPerRoom',
      t.roomId,
      async (roomTries) => {
        const derive = () =>
          this.scrypt
            .add(() => verifyPassword(t.password, t.stored), { signal: t.signal })
            .catch((err: unknown) => {
              throw goneAsRefusal(err);
            });
        let ok: boolean;
        if (roomTries <= this.limits.config.passwordFailuresPerRoom.points) {
          ok = await derive();
        } else {
          // This try was counted already: an address with no earlier failure in its window goes first.
          const clean = (await this.limits.used('passwordFailuresPerAddress', t.address)) <= 1;
          ok = await this.pace(t.roomId, derive, clean ? 1 : 0, t.signal);
        }
        if (!ok) throw new DomainError('PASSWORD_WRONG');
      },
      isWrong,
    );
  }

  /** fn in the room's line: one at a time, each holding the line for paceMs (its caller is answered at once) */
  private pace<T>(roomId: string, fn: () => Promise<T>, priority: number, signal?: AbortSignal): Promise<T> {
    let queue = this.paced.get(roomId);
    if (!queue) {
      queue = new PQueue({ concurrency: 1 });
      const q = queue;
      q.on('idle', () => {
        if (this.paced.get(roomId) === q) this.paced.delete(roomId);
      });
      this.paced.set(roomId, q);
    }
    if (queue.size >= ROOM_QUEUE_MAX) throw new DomainError('RATE_LIMITED');
    return new Promise<T>((resolve, reject) => {
      queue
        .add(
          async () => {
            await fn().then(resolve, reject);
            await new Promise((r) => setTimeout(r, this.paceMs));
          },
          { priority, signal },
        )
        .catch((err: unknown) => reject(goneAsRefusal(err)));
    });
  }
}
