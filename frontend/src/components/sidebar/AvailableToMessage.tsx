/** Available to message: online users with no DM yet (creator first, then admins, then by username); a tap asks to start a DM (DM confirm). */
import type { PersonView } from '../../state/conversationSelectors.ts';
import { PersonAvatar } from './PersonAvatar.tsx';

interface Props {
  people: PersonView[];
  creatorId: string | null;
  onStart(userId: string): void;
}

export function AvailableToMessage({ people, creatorId, onStart }: Props) {
  if (people.length === 0) return null;
  return (
    <section className="available" aria-labelledby="available-heading" data-testid="available-to-message">
      <h2 id="available-heading" className="sidebar-section-head sidebar-subhead">Available to message</h2>
      <ul className="channel-list">
        {people.map((p) => (
          <li key={p.id}>
            <button type="button" className="channel-row person-row" onClick={() => onStart(p.id)}
              data-testid="available-user" data-username={p.username} aria-label={`Message ${p.username}`}>
              <PersonAvatar name={p.username} picture={p.profilePicture} status={p.status} size={30} />
              <span className="channel-name">{p.username}</span>
              {p.id === creatorId ? <span className="person-tag">Owner</span> : p.isAdmin ? <span className="person-tag">Admin</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
