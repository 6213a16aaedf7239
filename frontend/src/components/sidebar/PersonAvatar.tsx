/** A person's avatar (picture when it is a stored address, else the initial) with an optional presence dot. */
import { Avatar } from '../Avatar.tsx';
import type { UserStatus } from '../../state/conversationSelectors.ts';
import { useSignedUrl } from '../../lib/fileLinks.ts';
import { useT, type MessageId } from '../../i18n/i18n.ts';

/** each status's word (a key: the caller reads it in the active language) */
export const STATUS_LABEL: Record<UserStatus, MessageId> = {
  online: 'roomside.status.online',
  away: 'roomside.status.away',
  busy: 'roomside.status.busy',
  offline: 'roomside.status.offline',
};

/** Only our own stored pictures or https addresses are shown (never javascript:, data: from others, ...). */
const safePicture = (src: string | null | undefined): string | null =>
  src && (/^https:\/\//.test(src) || src.startsWith('/api/')) ? src : null;

export function PersonAvatar({
  name,
  picture,
  status,
  size = 32,
}: {
  name: string;
  picture?: string | null;
  status?: UserStatus;
  size?: number;
}) {
  // our uploaded pictures load through a signed link (an <img> sends no token)
  const t = useT();
  const src = useSignedUrl(safePicture(picture));
  return (
    <span className="person-avatar" style={{ width: size, height: size }}>
      {src ? (
        <img className="avatar avatar-img" src={src} alt="" width={size} height={size} referrerPolicy="no-referrer" />
      ) : (
        <Avatar name={name} size={size} />
      )}
      {status && (
        <span
          className="person-presence"
          data-testid="presence-dot"
          data-status={status}
          role="img"
          aria-label={t(STATUS_LABEL[status])}
          title={t(STATUS_LABEL[status])}
        />
      )}
    </span>
  );
}
