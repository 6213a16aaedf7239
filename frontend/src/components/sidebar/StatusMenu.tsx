/**
 * The user's own status in the sidebar footer (docs/product/messages.md M13): the avatar with its presence dot opens
 * a menu to choose Online or Busy. Away is not offered: it follows the tab (sidebar/presence.ts).
 */
import { Menu, type MenuEntry } from '../ui/Menu.tsx';
import type { UserStatus } from '../../state/conversationSelectors.ts';
import type { ChosenStatus } from './presence.ts';
import { PersonAvatar, STATUS_LABEL } from './PersonAvatar.tsx';
import { t, useT } from '../../i18n/i18n.ts';

const CHOICES: ChosenStatus[] = ['online', 'busy'];

export function statusChoices(current: UserStatus, choose: (s: ChosenStatus) => void): MenuEntry[] {
  return CHOICES.map((s) => ({
    label: current === s ? `${t(STATUS_LABEL[s])} ✓` : t(STATUS_LABEL[s]),
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
  useT(); // renders again when the language changes (statusChoices reads the active one)
  return (
    <Menu
      label={t('roomside.status.set')}
      side="top"
      align="start"
      testId="status-menu"
      items={statusChoices(status, choose)}
      trigger={
        <button
          type="button"
          className="status-button"
          aria-label={t('roomside.status.button', { status: t(STATUS_LABEL[status]) })}
          title={t('roomside.status.set')}
          data-testid="status-button"
          data-status={status}
        >
          <PersonAvatar name={name} picture={picture} status={status} size={36} />
        </button>
      }
    />
  );
}
