/**
 * Who is typing in a channel. The session drops entries nobody refreshed (its typing sweep), which re-renders
 * this; the clock check here hides an expired one even between two sweeps.
 */
import type { RoomState } from '../state/roomState.ts';
import { typingNames } from '../state/typing.ts';

export function useTypingNames(
  typing: RoomState['typing'],
  channelId: string | null,
  selfId: string | null | undefined,
): string[] {
  return typingNames(typing, channelId, selfId, Date.now());
}
