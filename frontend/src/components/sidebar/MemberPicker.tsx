/** Checkbox list of room members (the private channel's member picker); the current user is always a member. */
import type { RoomUser } from '@ephemera/proto';
import { PersonAvatar } from './PersonAvatar.tsx';
import { useT } from '../../i18n/i18n.ts';

interface Props {
  users: readonly RoomUser[];
  selfId: string | null;
  selected: ReadonlySet<string>;
  onToggle(userId: string): void;
  disabled?: boolean;
}

export function MemberPicker({ users, selfId, selected, onToggle, disabled }: Props) {
  const t = useT();
  const others = users
    .filter((u) => u.id !== selfId)
    .sort((a, b) => a.username.localeCompare(b.username, undefined, { sensitivity: 'base' }));
  if (others.length === 0)
    return (
      <p className="muted" data-testid="member-picker-empty">
        {t('roomside.members.nobody')}
      </p>
    );
  return (
    <ul className="member-picker" data-testid="member-picker" aria-label={t('roomside.channel.members')}>
      {others.map((u) => (
        <li key={u.id}>
          <label className="checkbox member-option">
            <input
              type="checkbox"
              checked={selected.has(u.id)}
              disabled={disabled}
              onChange={() => onToggle(u.id)}
              data-testid="member-option"
              data-username={u.username}
            />
            <PersonAvatar name={u.username} picture={u.profilePicture} size={24} />
            <span>{u.username}</span>
          </label>
        </li>
      ))}
    </ul>
  );
}
