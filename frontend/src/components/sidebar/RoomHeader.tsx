/**
 * The sidebar's room line (docs/product/rooms.md R15-R19): the room name (owner and admins click it to
 * rename: trimmed, empty or unchanged cancels, max 50, Enter commits, Escape cancels, blur commits), the tier
 * badge (FREE opens the upgrade prompt), online count x/max or x/∞, the lock when protected, and the countdown chip
 * of a free room with under 24 hours left (ticking every second, zeros once past).
 */
import { useEffect, useRef, useState } from 'react';
import { EXPIRY, LIMITS, type Tier } from '@ephemera/proto/client';
import { formatCapacity } from '../../lib/format.ts';
import { formatCountdown, showsCountdown } from '../../lib/expiry.ts';
import { ClockIcon, LockIcon, UsersIcon } from '../Icons.tsx';
import type { Result } from '../../lib/commandResult.ts';
import { useT } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

interface Props {
  name: string;
  tier: Tier;
  online: number;
  maxUsers: number | null | undefined;
  isPasswordProtected: boolean;
  expiresAt: string | null;
  canRename: boolean;
  rename(newName: string): Promise<Result>;
  onUpgrade(): void;
  notice(message: string): void;
}

/** Re-render every `ms` while `active` (the countdown chip). */
function useNow(ms: number, active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms, active]);
  return now;
}

function RoomName({ name, canRename, rename, notice }: Pick<Props, 'name' | 'canRename' | 'rename' | 'notice'>) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const done = useRef(false);

  const start = () => {
    setDraft(name);
    done.current = false;
    setEditing(true);
  };
  const finish = (commit: boolean) => {
    if (done.current) return; // Enter then blur: one commit
    done.current = true;
    setEditing(false);
    if (!commit) return;
    void rename(draft).then((r) => {
      if (!r.ok) notice(errorText(null, r.message));
    });
  };

  if (editing) {
    return (
      <input
        className="sidebar-room-rename"
        value={draft}
        maxLength={LIMITS.roomNameMax}
        autoFocus
        aria-label={t('roomside.room.nameLabel')}
        data-testid="room-name-edit"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            finish(true);
          }
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            finish(false);
          }
        }}
        onBlur={() => finish(true)}
      />
    );
  }
  if (!canRename)
    return (
      <h1 className="sidebar-room-name" title={name} data-testid="room-name">
        {name}
      </h1>
    );
  return (
    <h1 className="sidebar-room-name">
      <button
        type="button"
        className="room-name-button"
        title={t('roomside.room.clickToRename')}
        onClick={start}
        data-testid="room-name"
      >
        {name}
      </button>
    </h1>
  );
}

export function RoomHeader(p: Props) {
  const t = useT();
  const countdown = showsCountdown(p.tier, p.expiresAt, Date.now());
  const now = useNow(EXPIRY.countdownTickMs, countdown);
  return (
    <div className="sidebar-room">
      <div className="sidebar-room-line">
        <RoomName name={p.name} canRename={p.canRename} rename={p.rename} notice={p.notice} />
        {p.tier === 'free' ? (
          <button
            type="button"
            className="tier-badge tier-free"
            onClick={p.onUpgrade}
            data-testid="tier-badge"
            title={t('roomside.room.upgrade')}
          >
            {t('roomside.room.free')}
          </button>
        ) : (
          <span className={`tier-badge tier-${p.tier}`} data-testid="tier-badge">
            {p.tier.toUpperCase()}
          </span>
        )}
      </div>
      <div className="sidebar-room-meta">
        <span className="online-pill" title={t('roomside.room.onlineTitle')}>
          <span className="online-dot" aria-hidden="true" />
          <UsersIcon size={14} />
          <span data-testid="online-count">{formatCapacity(p.online, p.maxUsers)}</span>
        </span>
        {p.isPasswordProtected && (
          <span className="lock-pill" title={t('roomside.room.protectedTitle')} data-testid="lock-icon">
            <LockIcon size={13} /> {t('roomside.room.protected')}
          </span>
        )}
        {countdown && p.expiresAt && (
          <span className="countdown-chip" title={t('roomside.room.timeLeft')} data-testid="countdown-chip">
            <ClockIcon size={13} /> <time dateTime={p.expiresAt}>{formatCountdown(p.expiresAt, now)}</time>
          </span>
        )}
      </div>
    </div>
  );
}
