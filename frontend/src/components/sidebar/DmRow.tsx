/**
 * One DM in the conversation list: partner avatar with presence dot, typing... while the partner types, the hover
 * menu and the right-click menu (Mark as Read, Delete Conversation), and on touch screens a left-to-right swipe
 * beyond 50 px that reveals Kick User (owner and admins) and Delete Conversation. Owners and admins also find the
 * partner's administration entries (Make admin / Remove admin, Kick User) in the menus.
 */
import { useRef, useState, type PointerEvent } from 'react';
import type { ConversationItem } from '../../state/conversationSelectors.ts';
import { ContextMenu, Menu, type MenuEntry } from '../ui/Menu.tsx';
import { CheckCircleIcon, MoreIcon, TrashIcon } from './icons.tsx';
import { PersonAvatar } from './PersonAvatar.tsx';
import type { ConversationActions } from './conversationActions.ts';
import { MentionBadge, UnreadBadge } from './UnreadBadge.tsx';
import { useT } from '../../i18n/i18n.ts';

export const SWIPE_THRESHOLD_PX = 50;

interface Props {
  item: ConversationItem;
  active: boolean;
  actions: ConversationActions;
}

/** Pointer tracking for the swipe: a drag right past the threshold reveals the actions; a tap opens the DM. */
function useSwipe(onReveal: () => void) {
  const start = useRef<{ x: number; y: number } | null>(null);
  const swiped = useRef(false);
  return {
    onPointerDown: (e: PointerEvent) => {
      if (e.pointerType === 'mouse') return; // a mouse has the hover menu
      start.current = { x: e.clientX, y: e.clientY };
      swiped.current = false;
    },
    onPointerMove: (e: PointerEvent) => {
      const s = start.current;
      if (!s) return;
      const dx = e.clientX - s.x;
      if (dx > SWIPE_THRESHOLD_PX && Math.abs(e.clientY - s.y) < dx) {
        swiped.current = true;
        start.current = null;
        onReveal();
      }
    },
    onPointerUp: () => {
      start.current = null;
    },
    onPointerCancel: () => {
      start.current = null;
    },
    /** a click that ends a swipe does not open the DM */
    consumeSwipe: () => {
      const was = swiped.current;
      swiped.current = false;
      return was;
    },
  };
}

export function DmRow({ item, active, actions }: Props) {
  const t = useT();
  const { channel, unread, partner } = item;
  const [revealed, setRevealed] = useState(false);
  const swipe = useSwipe(() => setRevealed(true));
  const menu: (MenuEntry | 'separator')[] = [
    {
      label: t('roomside.dm.markRead'),
      icon: <CheckCircleIcon size={16} />,
      onSelect: () => actions.markRead(channel.id),
      testId: 'dm-menu-mark-read',
    },
    {
      label: t('roomside.deleteDm.title'),
      icon: <TrashIcon size={16} />,
      danger: true,
      onSelect: () => actions.askDeleteDm(channel.id),
      testId: 'dm-menu-delete',
    },
  ];
  const admin = partner ? (actions.memberActions?.(partner) ?? []) : [];
  if (admin.length) menu.push('separator', ...admin);
  const kick = admin.find((a) => a.testId === 'member-menu-kick');

  return (
    <ContextMenu label={t('roomside.dm.actions', { name: item.title })} items={menu} testId="dm-context-menu">
      <li
        className={`conv-item dm-item${active ? ' active' : ''}${revealed ? ' revealed' : ''}`}
        data-testid="dm-item"
        data-channel-id={channel.id}
      >
        <button
          type="button"
          className={`channel-row${active ? ' active' : ''}${unread ? ' has-unread' : ''}`}
          onClick={() => {
            if (swipe.consumeSwipe()) return;
            setRevealed(false);
            actions.select(channel.id);
          }}
          onPointerDown={swipe.onPointerDown}
          onPointerMove={swipe.onPointerMove}
          onPointerUp={swipe.onPointerUp}
          onPointerCancel={swipe.onPointerCancel}
          aria-current={active ? 'true' : undefined}
          data-testid="dm-row"
          data-channel-id={channel.id}
          data-partner-name={item.title}
          data-channel-name={item.title}
        >
          <PersonAvatar
            name={item.title}
            picture={partner?.profilePicture}
            status={partner?.status ?? 'offline'}
            size={34}
          />
          <span className="channel-main">
            <span className="channel-line">
              <span className="channel-name">{item.title}</span>
              {item.time && (
                <time className="channel-time" dateTime={item.lastMessage?.timestamp}>
                  {item.time}
                </time>
              )}
            </span>
            <span className="channel-line">
              {item.typing ? (
                <span className="channel-preview typing" data-testid="dm-typing">
                  {t('room.header.typing')}
                </span>
              ) : (
                <span className="channel-preview" data-testid="channel-preview">
                  {item.preview}
                </span>
              )}
              <MentionBadge count={item.mentions} />
              <UnreadBadge count={unread} />
            </span>
          </span>
        </button>
        <Menu
          label={t('roomside.dm.actions', { name: item.title })}
          items={menu}
          testId="dm-menu"
          trigger={
            <button
              type="button"
              className="conv-more"
              aria-label={t('roomside.member.moreActions', { name: item.title })}
              data-testid="dm-more"
            >
              <MoreIcon />
            </button>
          }
        />
        {revealed && (
          <div className="swipe-actions" data-testid="swipe-actions">
            {kick && (
              <button
                type="button"
                className="button button-sm button-danger"
                data-testid="swipe-kick"
                onClick={() => {
                  setRevealed(false);
                  kick.onSelect();
                }}
              >
                {t('roomside.member.kick')}
              </button>
            )}
            <button
              type="button"
              className="button button-sm button-danger"
              data-testid="swipe-delete"
              onClick={() => {
                setRevealed(false);
                actions.askDeleteDm(channel.id);
              }}
            >
              {t('roomside.deleteDm.title')}
            </button>
            <button type="button" className="button button-sm button-ghost" onClick={() => setRevealed(false)}>
              {t('roomside.action.cancel')}
            </button>
          </div>
        )}
      </li>
    </ContextMenu>
  );
}
