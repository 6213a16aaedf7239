/** A message's reaction chips: emoji, count, pressed when I reacted; a click toggles (or moves) my reaction. */
import { reactionChips, type Reactions } from '../state/reactions.ts';
import { Tooltip } from './ui/Tooltip.tsx';
import { useT } from '../i18n/i18n.ts';

interface Props {
  reactions: Reactions;
  selfId: string | null;
  /** user id -> name, for the chip's tooltip */
  nameOf(userId: string): string;
  onToggle(emoji: string): void;
  disabled?: boolean;
}

export function ReactionBar({ reactions, selfId, nameOf, onToggle, disabled }: Props) {
  const t = useT();
  const chips = reactionChips(reactions, selfId);
  if (chips.length === 0) return null;
  return (
    <div className="reaction-bar" data-testid="reaction-bar">
      {chips.map((chip) => {
        const who = (reactions[chip.emoji] ?? [])
          .map((id) => (id === selfId ? t('room.message.you') : nameOf(id)))
          .join(', ');
        return (
          <Tooltip key={chip.emoji} content={who}>
            <button
              type="button"
              className={`reaction-chip${chip.mine ? ' mine' : ''}`}
              aria-pressed={chip.mine}
              disabled={disabled}
              aria-label={t(chip.mine ? 'room.reaction.chipMine' : 'room.reaction.chip', {
                emoji: chip.emoji,
                count: chip.count,
              })}
              onClick={() => onToggle(chip.emoji)}
              data-testid="reaction-chip"
              data-emoji={chip.emoji}
              data-count={chip.count}
              data-mine={chip.mine}
            >
              <span className="reaction-emoji" aria-hidden="true">
                {chip.emoji}
              </span>
              <span className="reaction-count" aria-hidden="true">
                {chip.count}
              </span>
            </button>
          </Tooltip>
        );
      })}
    </div>
  );
}
