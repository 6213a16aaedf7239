/**
 * One topic channel in the conversation list. An owner or admin gets a menu (Rename, Members for a private channel,
 * Delete); rename is inline: Enter commits, Escape cancels, blur commits, max 30, empty or unchanged cancels.
 */
import { useEffect, useRef, useState } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import type { ConversationItem } from '../../state/conversationSelectors.ts';
import { Menu, type MenuEntry } from '../ui/Menu.tsx';
import { HashIcon, LockIcon } from '../Icons.tsx';
import { MoreIcon, PencilIcon, TrashIcon, UserPlusIcon } from './icons.tsx';
import type { ConversationActions } from './conversationActions.ts';
import { MentionBadge, UnreadBadge } from './UnreadBadge.tsx';
import { useT } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

interface Props {
  item: ConversationItem;
  active: boolean;
  canManage: boolean;
  actions: ConversationActions;
}

export function ChannelRow({ item, active, canManage, actions }: Props) {
  const t = useT();
  const { channel, unread } = item;
  const [renaming, setRenaming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const menu: MenuEntry[] = [
    {
      label: t('roomside.channel.rename'),
      icon: <PencilIcon size={16} />,
      onSelect: () => {
        setError(null);
        setRenaming(true);
      },
      testId: 'channel-menu-rename',
    },
    ...(channel.isPrivate
      ? [
          {
            label: t('roomside.channel.members'),
            icon: <UserPlusIcon size={16} />,
            onSelect: () => actions.editMembers(channel.id),
            testId: 'channel-menu-members',
          },
        ]
      : []),
    {
      label: t('roomside.channel.delete'),
      icon: <TrashIcon size={16} />,
      danger: true,
      onSelect: () => actions.askDeleteChannel(channel.id),
      testId: 'channel-menu-delete',
    },
  ];

  return (
    <li className={`conv-item${active ? ' active' : ''}`} data-testid="channel-item" data-channel-id={channel.id}>
      {renaming ? (
        <RenameField
          initial={channel.name}
          onDone={async (name) => {
            setRenaming(false);
            const result = await actions.rename(channel.id, name);
            if (!result.ok) setError(errorText(null, result.message));
          }}
          onCancel={() => setRenaming(false)}
        />
      ) : (
        <button
          type="button"
          className={`channel-row${active ? ' active' : ''}${unread ? ' has-unread' : ''}`}
          onClick={() => actions.select(channel.id)}
          aria-current={active ? 'true' : undefined}
          data-testid="channel-row"
          data-channel-id={channel.id}
          data-channel-name={channel.name}
        >
          <span className="channel-icon">{channel.isPrivate ? <LockIcon size={16} /> : <HashIcon size={16} />}</span>
          <span className="channel-main">
            <span className="channel-line">
              <span className="channel-name">{channel.name}</span>
              {item.time && (
                <time className="channel-time" dateTime={item.lastMessage?.timestamp}>
                  {item.time}
                </time>
              )}
            </span>
            <span className="channel-line">
              <span className="channel-preview" data-testid="channel-preview">
                {item.preview}
              </span>
              <MentionBadge count={item.mentions} />
              <UnreadBadge count={unread} />
            </span>
          </span>
        </button>
      )}
      {canManage && !renaming && (
        <Menu
          label={t('roomside.channel.actions', { channel: channel.name })}
          items={menu}
          testId="channel-menu"
          trigger={
            <button
              type="button"
              className="conv-more"
              aria-label={t('roomside.member.moreActions', { name: channel.name })}
              data-testid="channel-more"
            >
              <MoreIcon />
            </button>
          }
        />
      )}
      {error && (
        <p className="conv-error" role="alert" data-testid="channel-rename-error">
          {error}
        </p>
      )}
    </li>
  );
}

function RenameField({ initial, onDone, onCancel }: { initial: string; onDone(name: string): void; onCancel(): void }) {
  const t = useT();
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const finish = (commit: boolean) => {
    if (done.current) return;
    done.current = true;
    const name = value.trim();
    if (!commit || !name || name === initial)
      onCancel(); // empty or unchanged cancels
    else onDone(name);
  };
  return (
    <div className="channel-row renaming">
      <span className="channel-icon">
        <HashIcon size={16} />
      </span>
      <input
        ref={ref}
        className="rename-input"
        value={value}
        maxLength={LIMITS.channelNameMax}
        aria-label={t('roomside.channel.nameLabel')}
        data-testid="channel-rename-input"
        spellCheck={false}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => finish(true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            finish(true);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            finish(false);
          }
        }}
      />
    </div>
  );
}
