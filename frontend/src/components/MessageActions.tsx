/**
 * A message's actions (docs/product/messages.md M5, M7): reactions on every message (the six quick ones and the full
 * picker); Reply and Copy on other users' messages; Edit and Delete only on the author's own. Built on the shell's
 * Popover and Menu (Radix: keyboard use, focus return, Escape).
 */
import { useState } from 'react';
import { Menu, type MenuEntry } from './ui/Menu.tsx';
import { Popover } from './ui/Popover.tsx';
import { LazyEmojiPicker } from './LazyEmojiPicker.tsx';
import { QUICK_REACTIONS } from '../state/reactions.ts';
import { CopyIcon } from './Icons.tsx';
import { MoreIcon, PencilIcon, ReplyIcon, SmileIcon, TrashIcon } from './ChatIcons.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';

const QUICK_LABELS: Record<string, MessageId> = {
  '👍': 'room.reaction.thumbsUp',
  '❤️': 'room.reaction.heart',
  '😂': 'room.reaction.laughing',
  '😮': 'room.reaction.surprised',
  '😢': 'room.reaction.sad',
  '🙏': 'room.reaction.prayingHands',
};

interface ReactionPickerProps {
  onPick(emoji: string): void;
  /** my current reaction on this message (shown as pressed) */
  mine: string | null;
}

/** The react button: a popover with the quick reactions and, on demand, the full picker. */
export function ReactionPicker({ onPick, mine }: ReactionPickerProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [full, setFull] = useState(false);
  const pick = (emoji: string) => {
    setOpen(false);
    setFull(false);
    onPick(emoji);
  };
  return (
    <Popover
      label={t('room.actions.addReaction')}
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setFull(false);
      }}
      side="top"
      align="end"
      className="reaction-popover"
      testId="reaction-popover"
      trigger={
        <button
          type="button"
          className="icon-button message-action"
          aria-label={t('room.actions.addReaction')}
          data-testid="react-button"
        >
          <SmileIcon />
        </button>
      }
    >
      <div className="quick-reactions" role="group" aria-label={t('room.actions.quickReactions')}>
        {QUICK_REACTIONS.map((emoji) => (
          <button
            key={emoji}
            type="button"
            className={`quick-reaction${mine === emoji ? ' mine' : ''}`}
            aria-label={QUICK_LABELS[emoji] ? t(QUICK_LABELS[emoji]) : emoji}
            aria-pressed={mine === emoji}
            onClick={() => pick(emoji)}
            data-testid="quick-reaction"
            data-emoji={emoji}
          >
            {emoji}
          </button>
        ))}
        <button
          type="button"
          className="quick-reaction more"
          aria-label={t('room.actions.moreEmoji')}
          aria-expanded={full}
          onClick={() => setFull((f) => !f)}
          data-testid="more-emoji"
        >
          <MoreIcon />
        </button>
      </div>
      {full && <LazyEmojiPicker onPick={pick} />}
    </Popover>
  );
}

interface Props {
  own: boolean;
  myReaction: string | null;
  onReact(emoji: string): void;
  onReply(): void;
  onCopy(): void;
  onEdit(): void;
  onDelete(): void;
}

export function MessageActions({ own, myReaction, onReact, onReply, onCopy, onEdit, onDelete }: Props) {
  const t = useT();
  const items: MenuEntry[] = own
    ? [
        { label: t('room.actions.edit'), icon: <PencilIcon />, onSelect: onEdit, testId: 'action-edit' },
        {
          label: t('room.actions.delete'),
          icon: <TrashIcon />,
          onSelect: onDelete,
          danger: true,
          testId: 'action-delete',
        },
      ]
    : [
        { label: t('room.actions.reply'), icon: <ReplyIcon />, onSelect: onReply, testId: 'action-reply' },
        { label: t('room.actions.copy'), icon: <CopyIcon size={16} />, onSelect: onCopy, testId: 'action-copy' },
      ];
  return (
    <div className="message-actions" role="toolbar" aria-label={t('room.actions.label')} data-testid="message-actions">
      <ReactionPicker onPick={onReact} mine={myReaction} />
      <Menu
        label={t('room.actions.label')}
        side="bottom"
        align="end"
        items={items}
        testId="message-menu"
        trigger={
          <button
            type="button"
            className="icon-button message-action"
            aria-label={t('room.actions.more')}
            data-testid="message-menu-button"
          >
            <MoreIcon />
          </button>
        }
      />
    </div>
  );
}
