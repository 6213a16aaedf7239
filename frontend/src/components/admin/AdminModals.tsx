/**
 * The room administration dialogs (docs/product/rooms.md R23-R30, texts in proto/src/errors.ts): Set Maximum Users,
 * Delete Chat Room, Kick User, Upgrade required. Set or Remove Password is in PasswordModal.tsx, Extend Room Duration
 * in ExtendModal.tsx, the themes in ThemeModal.tsx; their forms' shared parts in adminForm.tsx. Each sends one
 * command and shows the server's reason on failure.
 */
import { useState, type FormEvent } from 'react';
import type { Tier } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { AlertIcon, UsersIcon } from '../Icons.tsx';
import { UpgradePromptModal } from '../UpgradePromptModal.tsx';
import { TrashIcon } from '../sidebar/icons.tsx';
import { parseMaxUsers } from '../../lib/roomRules.ts';
import type { Result } from '../../lib/commandResult.ts';
import { TIER_NAME_KEYS, UPGRADE_REASONS, type UpgradeFeature } from './adminDialog.ts';
import { Actions, ErrorLine, useSubmit } from './adminForm.tsx';
import { useT } from '../../i18n/i18n.ts';
import { Trans } from '../../i18n/Trans.tsx';

/** Set Maximum Users: an integer of at least 2, or "unlimited" on business (pro: numbers only). */
export function MaxUsersModal({
  tier,
  current,
  onClose,
  setMaxUsers,
}: {
  tier: Tier;
  current: number | null;
  onClose(): void;
  setMaxUsers(n: number | 'unlimited'): Promise<Result>;
}) {
  const t = useT();
  const [value, setValue] = useState(current === null ? 'unlimited' : String(current));
  const { busy, error, setError, run } = useSubmit(onClose);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseMaxUsers(value, tier);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    void run(() => setMaxUsers(parsed.maxUsers));
  };
  return (
    <Modal
      title={t('roomside.maxUsers.title')}
      onClose={busy ? undefined : onClose}
      icon={<UsersIcon size={22} />}
      testId="max-users-modal"
    >
      <form onSubmit={submit} className="modal-form" noValidate>
        <div className="field">
          <label htmlFor="max-users">{t('roomside.maxUsers.label')}</label>
          <input
            id="max-users"
            type="text"
            inputMode="numeric"
            value={value}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            data-testid="max-users-input"
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
          />
          <p className="field-hint">
            {tier === 'business' ? t('roomside.maxUsers.hintBusiness') : t('roomside.maxUsers.hint')}
          </p>
        </div>
        <ErrorLine error={error} testId="max-users-error" />
        <Actions onClose={onClose} busy={busy}>
          <button type="submit" className="button button-primary" disabled={busy} data-testid="max-users-submit">
            {busy ? t('roomside.action.saving') : t('roomside.action.save')}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

/** Delete Chat Room: permanent; confirm is enabled only when the typed text equals the room name exactly. */
export function DeleteRoomModal({
  roomName,
  onClose,
  deleteRoom,
}: {
  roomName: string;
  onClose(): void;
  deleteRoom(): Promise<Result>;
}) {
  const t = useT();
  const [typed, setTyped] = useState('');
  const { busy, error, run } = useSubmit(() => {});
  const matches = typed === roomName;
  return (
    <Modal
      title={t('roomside.deleteRoom.title')}
      onClose={busy ? undefined : onClose}
      tone="danger"
      icon={<TrashIcon size={22} />}
      testId="delete-room-modal"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (matches) void run(deleteRoom);
        }}
        className="modal-form"
        noValidate
      >
        <p>
          <Trans id="roomside.deleteRoom.warning" values={{ roomName }} components={{ 0: <strong /> }} />
        </p>
        <div className="field">
          <label htmlFor="delete-room-name">
            <Trans id="roomside.deleteRoom.typeToConfirm" values={{ roomName }} components={{ 0: <strong /> }} />
          </label>
          <input
            id="delete-room-name"
            type="text"
            value={typed}
            autoComplete="off"
            spellCheck={false}
            data-testid="delete-room-input"
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <ErrorLine error={error} testId="delete-room-error" />
        <Actions onClose={onClose} busy={busy}>
          <button
            type="submit"
            className="button button-danger"
            disabled={!matches || busy}
            data-testid="delete-room-confirm"
          >
            {busy ? t('roomside.action.deleting') : t('roomside.deleteRoom.title')}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

/** Kick User confirm (owner and admins; never oneself). */
export function KickUserModal({
  username,
  onClose,
  kick,
}: {
  username: string;
  onClose(): void;
  kick(): Promise<Result>;
}) {
  const t = useT();
  const { busy, error, run } = useSubmit(onClose);
  return (
    <Modal
      title={t('roomside.member.kick')}
      onClose={busy ? undefined : onClose}
      tone="danger"
      icon={<AlertIcon size={22} />}
      testId="kick-user-modal"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
            {t('roomside.action.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => void run(kick)}
            disabled={busy}
            data-testid="kick-user-confirm"
          >
            {busy ? t('roomside.kick.removing') : t('roomside.member.kick')}
          </button>
        </>
      }
    >
      <p>
        <Trans id="roomside.kick.question" values={{ name: username }} components={{ 0: <strong /> }} />
      </p>
      <ErrorLine error={error} testId="kick-user-error" />
    </Modal>
  );
}

/** Upgrade required: the gated control's reason and the room's current plan. */
export function UpgradeModal({ feature, tier, onClose }: { feature: UpgradeFeature; tier: Tier; onClose(): void }) {
  const t = useT();
  return (
    <UpgradePromptModal
      title={t('roomside.upgrade.required')}
      testId="upgrade-modal"
      linkTestId="upgrade-link"
      onClose={onClose}
    >
      <p data-testid="upgrade-reason">{t(UPGRADE_REASONS[feature])}</p>
      <p className="muted">{t('roomside.upgrade.current', { plan: t(TIER_NAME_KEYS[tier]) })}</p>
    </UpgradePromptModal>
  );
}
