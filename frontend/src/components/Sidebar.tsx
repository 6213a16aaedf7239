import type { RoomState } from '../state/roomState.ts';
import { channelSummaries } from '../state/selectors.ts';
import { canManageChannels, formatCapacity, roleOf } from '../lib/format.ts';
import { AppLink } from './AppLink.tsx';
import { SoundToggle } from './SoundToggle.tsx';
import { Avatar } from './Avatar.tsx';
import { ChannelList } from './ChannelList.tsx';
import { InviteCard } from './InviteCard.tsx';
import { LockIcon, LogOutIcon, LogoMark, PlusIcon, UsersIcon } from './Icons.tsx';

interface Props {
  state: RoomState;
  roomName: string;
  onSelectChannel(channelId: string): void;
  onOpenCreateChannel(): void;
  onLeave(): void;
}

export function Sidebar({ state, roomName, onSelectChannel, onOpenCreateChannel, onLeave }: Props) {
  const { workspace, user } = state;
  const tier = workspace?.tier ?? workspace?.settings?.tier ?? 'free';
  const canManage = canManageChannels(user);
  const role = roleOf(user);
  const name = workspace?.name ?? roomName;

  return (
    <aside className="sidebar" data-testid="sidebar">
      <div className="sidebar-header">
        <AppLink href="/" className="sidebar-logo" aria-label="Ephemera home"><LogoMark size={28} /></AppLink>
        <SoundToggle />
        <div className="sidebar-room">
          <div className="sidebar-room-line">
            <h1 className="sidebar-room-name" title={name} data-testid="room-name">{name}</h1>
            {tier === 'free'
              ? <a href="/upgrade" target="_blank" rel="noopener noreferrer" className="tier-badge tier-free" data-testid="tier-badge" title="Upgrade this room">FREE</a>
              : <span className={`tier-badge tier-${tier}`} data-testid="tier-badge">{tier.toUpperCase()}</span>}
          </div>
          <div className="sidebar-room-meta">
            <span className="online-pill" title="People online / room limit">
              <span className="online-dot" aria-hidden="true" />
              <UsersIcon size={14} />
              <span data-testid="online-count">{formatCapacity(state.online.length, workspace?.settings?.maxUsers)}</span>
            </span>
            {workspace?.isPasswordProtected && (
              <span className="lock-pill" title="Password protected" data-testid="lock-icon"><LockIcon size={13} /> Protected</span>
            )}
          </div>
        </div>
      </div>

      <div className="sidebar-section-head">
        <span>Channels</span>
        {canManage && (
          <button type="button" className="icon-button icon-button-dark" onClick={onOpenCreateChannel}
            aria-label="Create channel" title="Create channel" data-testid="create-channel-button">
            <PlusIcon size={18} />
          </button>
        )}
      </div>

      <div className="sidebar-scroll">
        <ChannelList items={channelSummaries(state)} currentChannelId={state.currentChannelId} canManage={canManage}
          selfId={user?.id ?? null} onSelect={onSelectChannel} />
        <InviteCard roomName={name} />
      </div>

      <div className="sidebar-footer">
        <Avatar name={user?.username ?? '?'} size={36} />
        <div className="sidebar-user">
          <span className="sidebar-username" data-testid="current-username">{user?.username}</span>
          <span className={`role-badge role-${role.toLowerCase()}`} data-testid="role-badge">{role}</span>
        </div>
        <button type="button" className="icon-button icon-button-dark" onClick={onLeave} aria-label="Leave room" title="Leave room" data-testid="leave-button">
          <LogOutIcon size={18} />
        </button>
      </div>
    </aside>
  );
}
