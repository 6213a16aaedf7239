/**
 * Available to message: online users with no DM yet (creator first, then admins, then by username); a tap asks to
 * start a DM (DM confirm). For an owner or admin each row also has a menu with the person's administration entries.
 * A long list, or one with more pages to load (a big room), scrolls in a box of its own with only the rows in view in
 * the page (VirtualPeople.tsx, loaded on demand), and its end asks for the online list's next page (`onEnd`;
 * docs/protocol.md fetch-online-users).
 */
import { lazy, Suspense } from 'react';
import type { PersonView } from '../../state/conversationSelectors.ts';
import { Menu, type MenuEntry } from '../ui/Menu.tsx';
import { PersonAvatar } from './PersonAvatar.tsx';
import { MoreIcon } from './icons.tsx';
import { useT } from '../../i18n/i18n.ts';

const VirtualPeople = lazy(() => import('./VirtualPeople.tsx'));
/** above this many rows the list is virtualized */
const VIRTUAL_PEOPLE_FROM = 60;

interface Props {
  people: PersonView[];
  creatorId: string | null;
  onStart(userId: string): void;
  memberActions?(person: PersonView): MenuEntry[];
  /** the online list has more pages: called when its end comes into view */
  onEnd?(): void;
}

export function AvailableToMessage({ people, creatorId, onStart, memberActions, onEnd }: Props) {
  const t = useT();
  if (people.length === 0) return null;
  const row = (p: PersonView) => (
    <PersonRow p={p} creatorId={creatorId} onStart={onStart} memberActions={memberActions} />
  );
  const plain = (list: PersonView[]) => (
    <ul className="channel-list">
      {list.map((p) => (
        <li key={p.id} className="conv-item person-item">
          {row(p)}
        </li>
      ))}
    </ul>
  );
  return (
    <section className="available" aria-labelledby="available-heading" data-testid="available-to-message">
      <h2 id="available-heading" className="sidebar-section-head sidebar-subhead">
        {t('roomside.sidebar.available')}
      </h2>
      {onEnd || people.length >= VIRTUAL_PEOPLE_FROM ? (
        <Suspense fallback={plain(people.slice(0, VIRTUAL_PEOPLE_FROM))}>
          <VirtualPeople people={people} row={row} onEnd={onEnd} />
        </Suspense>
      ) : (
        plain(people)
      )}
    </section>
  );
}

function PersonRow({
  p,
  creatorId,
  onStart,
  memberActions,
}: {
  p: PersonView;
  creatorId: string | null;
  onStart(userId: string): void;
  memberActions?(person: PersonView): MenuEntry[];
}) {
  const t = useT();
  const admin = memberActions?.(p) ?? [];
  return (
    <>
      <button
        type="button"
        className="channel-row person-row"
        onClick={() => onStart(p.id)}
        data-testid="available-user"
        data-username={p.username}
        aria-label={t('roomside.member.message', { name: p.username })}
      >
        <PersonAvatar name={p.username} picture={p.profilePicture} status={p.status} size={30} />
        <span className="channel-name">{p.username}</span>
        {p.id === creatorId ? (
          <span className="person-tag">{t('roomside.role.owner')}</span>
        ) : p.isAdmin ? (
          <span className="person-tag">{t('roomside.role.admin')}</span>
        ) : null}
      </button>
      {admin.length > 0 && (
        <Menu
          label={t('roomside.member.actions', { name: p.username })}
          items={admin}
          testId="member-menu"
          trigger={
            <button
              type="button"
              className="conv-more"
              aria-label={t('roomside.member.moreActions', { name: p.username })}
              data-testid="member-more"
            >
              <MoreIcon />
            </button>
          }
        />
      )}
    </>
  );
}
