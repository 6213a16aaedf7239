/**
 * Typing indicators in the ephemeral store. A typer is a member of one sorted set scored by when the indicator
 * expires (LIMITS.typingExpireMs after the last typing-start); the client re-sends typing-start every
 * LIMITS.typingRefreshMs while typing, which pushes the expiry on. A stop (typing-stop, or the gateway's stop for
 * a socket that went) removes the entry and is announced once. If nobody says stop (the typer's gateway crashed),
 * the sweeper takes the expired entries and announces their stop. ztakeBelow is atomic, so with several presence
 * replicas sweeping each stop is still announced once. Receivers also drop an indicator not refreshed within
 * LIMITS.typingExpireMs (docs/protocol.md), so a lost stop never leaves "typing..." on screen for good.
 */
import { LIMITS, type Audience, type PresenceSignal } from '@ephemera/proto';
import type { EphemeralStore } from '@ephemera/platform';

const TYPERS = 'presence:typing';
/** The member: one per user per channel, so a refresh moves the expiry instead of adding an entry. */
const memberOf = (workspaceId: string, channelId: string, userId: string) => `${workspaceId}\n${channelId}\n${userId}`;
/** What the stop signal needs (name, audience), kept a minute longer than the indicator so the sweeper finds it. */
const detailKey = (member: string) => `presence:typing-detail:${member}`;
const DETAIL_GRACE_MS = 60_000;

export interface TypingInput {
  workspaceId: string;
  channelId: string;
  userId: string;
  username: string;
  typing: boolean;
  audience: Audience;
}

export class TypingIndicators {
  constructor(
    private readonly store: EphemeralStore,
    private readonly signal: (s: PresenceSignal) => Promise<void>,
    private readonly now: () => number,
    private readonly expireMs: number = LIMITS.typingExpireMs,
  ) {}

  async update(input: TypingInput): Promise<void> {
    const member = memberOf(input.workspaceId, input.channelId, input.userId);
    if (input.typing) {
      await this.store.zadd(TYPERS, this.now() + this.expireMs, member);
      await this.store.set(detailKey(member), JSON.stringify(input), this.expireMs + DETAIL_GRACE_MS);
      await this.signal({ kind: 'typing', ...input });
      return;
    }
    // Announce a stop only for an indicator that was on: a stop after the sweeper's (or a second stop) says nothing.
    // When the sweeper took the entry first, its detail is the sweeper's to read and delete.
    const removed = await this.store.zrem(TYPERS, member);
    if (removed === 0) return;
    await this.store.del(detailKey(member));
    await this.signal({ kind: 'typing', ...input, typing: false });
  }

  /** Announce the stop of every indicator not refreshed in time; returns how many were stopped. */
  async sweep(): Promise<number> {
    const expired = await this.store.ztakeBelow(TYPERS, this.now());
    for (const { member } of expired) {
      const raw = await this.store.get(detailKey(member));
      await this.store.del(detailKey(member));
      if (!raw) continue; // stopped meanwhile
      const detail = JSON.parse(raw) as TypingInput;
      await this.signal({ kind: 'typing', ...detail, typing: false });
    }
    return expired.length;
  }
}
