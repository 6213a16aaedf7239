/**
 * The room administration dialogs (docs/product/rooms.md R23-R30, texts in proto/src/errors.ts): Set or Remove
 * Password, Set Maximum Users, Delete Chat Room, Kick User, Upgrade required. Extend Room Duration is in
 * ExtendModal.tsx, the themes in ThemeModal.tsx. Each sends one command and shows the server's reason on failure.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { LIMITS, type Tier } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { AlertIcon, LockIcon, UsersIcon } from '../Icons.tsx';
import { UpgradePromptModal } from '../UpgradePromptModal.tsx';
import { TrashIcon } from '../sidebar/icons.tsx';
import { checkRoomPassword, parseMaxUsers } from '../../lib/roomRules.ts';
import type { Result } from '../../lib/conversationCommands.ts';
import { TIER_NAME_KEYS, UPGRADE_REASONS, type UpgradeFeature } from './adminDialog.ts';
import { useT } from '../../i18n/i18n.ts';
import { Trans } from '../../i18n/Trans.tsx';
import { errorText } from '../../i18n/errorText.ts';

/** A submit's life: busy while the server answers, closed on success, the reason shown on failure. */
function useSubmit(onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<Result>) => {
    setBusy(true);
    setError(null);
    const r = await action();
    if (r.ok) {
      onClose();
      return;
    }
    setBusy(false);
    setError(r.message);
  };
  return { busy, error, setError, run };
}

// a refusal or a rule's text (English from the server or lib/roomRules.ts) shows in the active language
const ErrorLine = ({ error, testId }: { error: string | null; testId: string }) =>
  error ? (
    <div className="form-error" role="alert" data-testid={testId}>
      <AlertIcon size={16} /> <span>{errorText(null, error)}</span>
    </div>
  ) : null;

function Actions({ onClose, busy, children }: { onClose(): void; busy: boolean; children: ReactNode }) {
  const t = useT();
  return (
    <div className="modal-actions">
      <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
        {t('roomside.action.cancel')}
      </button>
      {children}
    </div>
  );
}

/** Set or Remove Password: the modal toggles between the two modes. */
export function PasswordModal({
  isProtected,
  onClose,
  setPassword,
}: {
  isProtected: boolean;
  onClose(): void;
  setPassword(p: string | null): Promise<Result>;
}) {
  const t = useT();
  const [mode, setMode] = useState<'set' | 'remove'>(isProtected ? 'remove' : 'set');
  const [value, setValue] = useState('');
  const { busy, error, setError, run } = useSubmit(onClose);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'remove') {
      void run(() => setPassword(null));
      return;
    }
    const checked = checkRoomPassword(value);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    void run(() => setPassword(checked.password));
  };
  return (
    <Modal
      title={mode === 'set' ? t('roomside.password.setTitle') : t('roomside.password.removeTitle')}
      onClose={busy ? undefined : onClose}
      icon={<LockIcon size={22} />}
      testId="password-modal"
    >
      <form onSubmit={submit} className="modal-form" noValidate>
        {mode === 'set' ? (
          <div className="field">
            <div className="field-head">
              <label htmlFor="room-password">{t('roomside.password.newLabel')}</label>
              <span className="counter">
                {value.length}/{LIMITS.roomPasswordMax}
              </span>
            </div>
            <input
              id="room-password"
              type="password"
              value={value}
              maxLength={LIMITS.roomPasswordMax}
              autoComplete="new-password"
              aria-invalid={error ? true : undefined}
              data-testid="room-password-input"
              onChange={(e) => {
                setValue(e.target.value);
                setError(null);
              }}
            />
            <p className="field-hint">{t('roomside.password.setHint')}</p>
          </div>
        ) : (
          <p>{t('roomside.password.removeHint')}</p>
        )}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setMode(mode === 'set' ? 'remove' : 'set');
            setError(null);
          }}
          disabled={busy}
          data-testid="password-mode-toggle"
        >
          {mode === 'set' ? t('roomside.password.switchToRemove') : t('roomside.password.switchToSet')}
        </button>
        <ErrorLine error={error} testId="password-error" />
        <Actions onClose={onClose} busy={busy}>
          <button
            type="submit"
            className={`button ${mode === 'set' ? 'button-primary' : 'button-danger'}`}
            disabled={busy}
            data-testid="password-submit"
          >
            {busy
              ? t('roomside.action.saving')
              : mode === 'set'
                ? t('roomside.password.setTitle')
                : t('roomside.password.removeTitle')}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

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
