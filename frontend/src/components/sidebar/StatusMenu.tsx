/**
 * The user's own status in the sidebar footer (docs/product/messages.md M13): the avatar with its presence dot opens
 * a menu to choose Online or Busy. Away is not offered: it follows the tab (sidebar/presence.ts).
 */
import { Menu, type MenuEntry } from '../ui/Menu.tsx';
import type { UserStatus } from '../../state/conversationSelectors.ts';
import type { ChosenStatus } from './presence.ts';
import { PersonAvatar, STATUS_LABEL } from './PersonAvatar.tsx';

const CHOICES: ChosenStatus[] = ['online', 'busy'];

export function statusChoices(current: UserStatus, choose: (s: ChosenStatus) => void): MenuEntry[] {
  return CHOICES.map((s) => ({
    label: current === s ? `${STATUS_LABEL[s]} ✓` : STATUS_LABEL[s],
    icon: <span className={`presence-dot ${s}`} />,
    testId: `status-${s}`,
    onSelect: () => choose(s),
  }));
}

interface Props {
  name: string;
  picture?: string | null;
  status: UserStatus;
  choose(status: ChosenStatus): void;
}

export function StatusMenu({ name, picture, status, choose }: Props) {
  return (
    <Menu
      label="Set your status"
      side="top"
      align="start"
      testId="status-menu"
      items={statusChoices(status, choose)}
      trigger={
        <button
          type="button"
          className="status-button"
          aria-label={`Status: ${STATUS_LABEL[status]}. Change status`}
          title="Set your status"
          data-testid="status-button"
          data-status={status}
        >
          <PersonAvatar name={name} picture={picture} status={status} size={36} />
        </button>
      }
    />
  );
}
