/**
 * The sidebar's footer (docs/product/rooms.md R19): the user's avatar with the status menu (Online, Busy), name and
 * role badge, Edit Profile and Leave.
 */
import type { RoomState } from '../../state/roomState.ts';
import { roleOf } from '../../lib/format.ts';
import { LogOutIcon } from '../Icons.tsx';
import { StatusMenu } from './StatusMenu.tsx';
import { PencilIcon } from './icons.tsx';
import type { ChosenStatus } from './presence.ts';
import { useT, type MessageId } from '../../i18n/i18n.ts';

/** the role badge's words (roleOf gives the English role, which also names its CSS class) */
const ROLE_TEXT = {
  Owner: 'roomside.role.owner',
  Admin: 'roomside.role.admin',
  Member: 'roomside.role.member',
} as const satisfies Record<string, MessageId>;

interface Props {
  user: RoomState['user'];
  chooseStatus(status: ChosenStatus): void;
  onEditProfile(): void;
  onLeave(): void;
}

export function SidebarFooter({ user, chooseStatus, onEditProfile, onLeave }: Props) {
  const t = useT();
  const role = roleOf(user);
  return (
    <div className="sidebar-footer">
      <StatusMenu
        name={user?.username ?? '?'}
        picture={user?.profilePicture}
        status={user?.presenceStatus ?? 'offline'}
        choose={chooseStatus}
      />
      <div className="sidebar-user">
        <span className="sidebar-username" data-testid="current-username">
          {user?.username}
        </span>
        <span className={`role-badge role-${role.toLowerCase()}`} data-testid="role-badge">
          {t(ROLE_TEXT[role])}
        </span>
      </div>
      <button
        type="button"
        className="icon-button icon-button-dark"
        onClick={onEditProfile}
        aria-label={t('roomside.sidebar.editProfile')}
        title={t('roomside.sidebar.editProfile')}
        data-testid="edit-profile-button"
      >
        <PencilIcon size={18} />
      </button>
      <button
        type="button"
        className="icon-button icon-button-dark"
        onClick={onLeave}
        aria-label={t('roomside.sidebar.leave')}
        title={t('roomside.sidebar.leave')}
        data-testid="leave-button"
      >
        <LogOutIcon size={18} />
      </button>
    </div>
  );
}
