/**
 * Available to message: online users with no DM yet (creator first, then admins, then by username); a tap asks to
 * start a DM (DM confirm). For an owner or admin each row also has a menu with the person's administration entries.
 */
import type { PersonView } from '../../state/conversationSelectors.ts';
import { Menu, type MenuEntry } from '../ui/Menu.tsx';
import { PersonAvatar } from './PersonAvatar.tsx';
import { MoreIcon } from './icons.tsx';

interface Props {
  people: PersonView[];
  creatorId: string | null;
  onStart(userId: string): void;
  memberActions?(person: PersonView): MenuEntry[];
}

export function AvailableToMessage({ people, creatorId, onStart, memberActions }: Props) {
  if (people.length === 0) return null;
  return (
    <section className="available" aria-labelledby="available-heading" data-testid="available-to-message">
      <h2 id="available-heading" className="sidebar-section-head sidebar-subhead">
        Available to message
      </h2>
      <ul className="channel-list">
        {people.map((p) => {
          const admin = memberActions?.(p) ?? [];
          return (
            <li key={p.id} className="conv-item person-item">
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
            </li>
          );
        })}
      </ul>
    </section>
  );
}
