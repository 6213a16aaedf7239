/**
 * Set or Remove Password (docs/product/rooms.md R23-R30, texts in proto/src/errors.ts): the room's password, checked
 * here by lib/roomRules.ts before the server checks it again; the server's reason shows on failure.
 */
import { useState, type FormEvent } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { LockIcon } from '../Icons.tsx';
import { checkRoomPassword } from '../../lib/roomRules.ts';
import type { Result } from '../../lib/commandResult.ts';
import { Actions, ErrorLine, useSubmit } from './adminForm.tsx';
import { useT } from '../../i18n/i18n.ts';

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
