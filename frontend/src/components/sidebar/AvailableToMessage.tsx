/**
 * Available to message: online users with no DM yet (creator first, then admins, then by username); a tap asks to
 * start a DM (DM confirm). For an owner or admin each row also has a menu with the person's administration entries.
 * A long list (a big room) scrolls in a box of its own with only the rows in view in the page (VirtualPeople.tsx,
 * loaded on demand), and its end asks for the online list's next page (`onEnd`; docs/protocol.md fetch-online-users).
 */
import { lazy, Suspense, type ReactNode } from 'react';
import type { PersonView } from '../../state/conversationSelectors.ts';
import { Menu, type MenuEntry } from '../ui/Menu.tsx';
import { PersonAvatar } from './PersonAvatar.tsx';
import { MoreIcon } from './icons.tsx';

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
  if (people.length === 0) return null;
  const row = (p: PersonView) => (
    <PersonRow p={p} creatorId={creatorId} onStart={onStart} memberActions={memberActions} />
  );
  return (
    <section className="available" aria-labelledby="available-heading" data-testid="available-to-message">
      <h2 id="available-heading" className="sidebar-section-head sidebar-subhead">
        Available to message
      </h2>
      {people.length >= VIRTUAL_PEOPLE_FROM ? (
        <Suspense fallback={<PlainPeople people={people.slice(0, VIRTUAL_PEOPLE_FROM)} row={row} />}>
          <VirtualPeople people={people} row={row} onEnd={onEnd} />
        </Suspense>
      ) : (
        <PlainPeople people={people} row={row} onEnd={onEnd} />
      )}
    </section>
  );
}

function PlainPeople(p: { people: PersonView[]; row(p: PersonView): ReactNode; onEnd?(): void }) {
  return (
    <ul className="channel-list">
      {p.people.map((person) => (
        <li key={person.id} className="conv-item person-item">
          {p.row(person)}
        </li>
      ))}
      {p.onEnd && <EndSentinel onEnd={p.onEnd} />}
    </ul>
  );
}

/** Calls onEnd when it scrolls into view (the list's end). */
function EndSentinel({ onEnd }: { onEnd(): void }) {
  return (
    <li
      aria-hidden="true"
      className="people-end"
      ref={(el) => {
        if (!el || typeof IntersectionObserver === 'undefined') return;
        const seen = new IntersectionObserver((entries) => {
          if (entries.some((e) => e.isIntersecting)) onEnd();
        });
        seen.observe(el);
        return () => seen.disconnect();
      }}
    />
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
  const admin = memberActions?.(p) ?? [];
  return (
    <>
      <button
        type="button"
        className="channel-row person-row"
        onClick={() => onStart(p.id)}
        data-testid="available-user"
        data-username={p.username}
        aria-label={`Message ${p.username}`}
      >
        <PersonAvatar name={p.username} picture={p.profilePicture} status={p.status} size={30} />
        <span className="channel-name">{p.username}</span>
        {p.id === creatorId ? (
          <span className="person-tag">Owner</span>
        ) : p.isAdmin ? (
          <span className="person-tag">Admin</span>
        ) : null}
      </button>
      {admin.length > 0 && (
        <Menu
          label={`Actions for ${p.username}`}
          items={admin}
          testId="member-menu"
          trigger={
            <button
              type="button"
              className="conv-more"
              aria-label={`More actions for ${p.username}`}
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
