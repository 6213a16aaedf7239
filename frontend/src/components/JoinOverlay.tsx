import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import { useUsernameAvailability } from '../hooks/useUsernameAvailability.ts';
import { createRoom, joinRoom } from '../lib/joinRoom.ts';
import { checkRoomPassword } from '../lib/roomRules.ts';
import { saveAuth } from '../lib/storage.ts';
import { roomPath } from '../lib/routes.ts';
import { AppLink } from './AppLink.tsx';
import { AlertIcon, CheckIcon, LockIcon, LogoMark } from './Icons.tsx';
import { useT } from '../i18n/i18n.ts';
import { Trans } from '../i18n/Trans.tsx';
import { translateShared } from '../i18n/sharedTexts.ts';
import { loadRoomSession } from '../pages/roomSessionLoader.ts';

export interface JoinOverlayProps {
  mode: 'join' | 'create';
  roomName: string;
  workspaceId: string | null;
  isPasswordProtected: boolean;
}

/** The join or setup overlay: choose a username (and a password), then create or join over HTTP. */
export function JoinOverlay({ mode, roomName, workspaceId, isPasswordProtected }: JoinOverlayProps) {
  const t = useT();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [protect, setProtect] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const isJoin = mode === 'join';
  const needsPassword = isJoin ? isPasswordProtected : protect;
  const trimmed = username.trim();
  const availability = useUsernameAvailability(workspaceId, username, isJoin);
  const usernameOk = trimmed.length >= LIMITS.usernameMin && (!isJoin || availability.state === 'available');
  const canSubmit = usernameOk && !submitting;

  const submit = async () => {
    if (submitting) return;
    if (!trimmed) {
      setError(t('common.join.usernameRequired'));
      return;
    }
    if (!usernameOk) return;
    const pw = password.trim();
    if (needsPassword && !pw) {
      setError(t('common.join.passwordRequired'));
      passwordRef.current?.focus();
      return;
    }
    if (needsPassword && !isJoin) {
      const checked = checkRoomPassword(pw);
      if (!checked.ok) {
        setError(checked.message);
        passwordRef.current?.focus();
        return;
      }
    }
    setError(null);
    setSubmitting(true);
    const result = isJoin
      ? await joinRoom({
          workspaceId: workspaceId ?? '',
          roomName,
          username: trimmed,
          password: needsPassword ? pw : null,
        })
      : await createRoom({ roomName, username: trimmed, password: needsPassword ? pw : null });
    if (!result.ok) {
      setSubmitting(false);
      setError(result.message);
      return;
    }
    saveAuth(result.auth);
    window.location.assign(roomPath(result.auth.roomName));
  };

  const onFormSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit();
  };

  const onUsernameKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    e.preventDefault();
    // Enter in the username field submits only when no password is needed
    if (needsPassword) passwordRef.current?.focus();
    else if (canSubmit || !trimmed) void submit();
  };

  const toggleProtect = (checked: boolean) => {
    setProtect(checked);
    if (!checked) setPassword('');
  };

  return (
    <div className="overlay-screen">
      <div className="overlay-card" data-testid="join-overlay" data-mode={mode}>
        <div className="overlay-brand">
          <LogoMark size={40} />
        </div>
        {isJoin ? (
          <>
            <p className="overlay-kicker">{t('common.join.invited')}</p>
            <h1 className="overlay-title" data-testid="overlay-room-name">
              {roomName}
            </h1>
          </>
        ) : (
          <>
            <h1 className="overlay-title">{t('common.join.setupTitle')}</h1>
            <p className="overlay-sub">
              <Trans
                id="common.join.creating"
                values={{ roomName }}
                components={{ 0: <strong data-testid="overlay-room-name" /> }}
              />
            </p>
          </>
        )}

        <form className="overlay-form" onSubmit={onFormSubmit} noValidate>
          <div className="field">
            <div className="field-head">
              <label htmlFor="username">{t('common.join.username')}</label>
              <span className="counter" data-testid="username-counter">
                {username.length}/{LIMITS.usernameMax}
              </span>
            </div>
            <input
              id="username"
              data-testid="username-input"
              type="text"
              value={username}
              autoFocus
              maxLength={LIMITS.usernameMax}
              placeholder={t('common.join.usernamePlaceholder')}
              autoComplete="nickname"
              autoCapitalize="off"
              spellCheck={false}
              onChange={(e) => {
                setUsername(e.target.value);
                setError(null);
                // the joined room's code downloads while the name is typed (a failed download is tried on join)
                void loadRoomSession().catch(() => {});
              }}
              onKeyDown={onUsernameKey}
              aria-invalid={availability.state === 'unavailable'}
            />
            {isJoin && (
              <div
                className={`field-status status-${availability.state}`}
                data-testid="username-availability"
                data-state={availability.state}
                role="status"
                aria-live="polite"
              >
                {availability.state === 'checking' && (
                  <>
                    <span className="spinner spinner-sm" aria-hidden="true" /> {t('common.join.checkingUsername')}
                  </>
                )}
                {availability.state === 'available' && (
                  <>
                    <CheckIcon size={14} /> {translateShared(availability.message)}
                  </>
                )}
                {availability.state === 'unavailable' && (
                  <>
                    <AlertIcon size={14} /> {translateShared(availability.message)}
                  </>
                )}
              </div>
            )}
          </div>

          {!isJoin && (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={protect}
                data-testid="password-protect-checkbox"
                onChange={(e) => toggleProtect(e.target.checked)}
              />
              <span>{t('common.join.protect')}</span>
            </label>
          )}

          {needsPassword && (
            <div className="field">
              <div className="field-head">
                <label htmlFor="room-password">
                  {isJoin ? t('common.join.roomPassword') : t('common.join.choosePassword')}
                </label>
                {isJoin && (
                  <span className="field-hint">
                    <LockIcon size={12} /> {t('common.join.protected')}
                  </span>
                )}
              </div>
              <input
                id="room-password"
                ref={passwordRef}
                data-testid="password-input"
                type="password"
                value={password}
                maxLength={LIMITS.roomPasswordMax}
                autoComplete={isJoin ? 'current-password' : 'new-password'}
                placeholder={isJoin ? t('common.join.passwordPlaceholder') : t('common.join.newPasswordPlaceholder')}
                onChange={(e) => {
                  setPassword(e.target.value);
                  setError(null);
                }}
              />
            </div>
          )}

          {error && (
            <div className="form-error" role="alert" data-testid="overlay-error">
              <AlertIcon size={16} /> <span>{error}</span>
            </div>
          )}

          <button
            type="submit"
            className="button button-primary button-lg button-block"
            disabled={!canSubmit}
            data-testid="overlay-submit"
          >
            {submitting
              ? t(isJoin ? 'common.join.joining' : 'common.join.creatingRoom')
              : t(isJoin ? 'common.join.join' : 'common.join.createAndJoin')}
          </button>
        </form>

        <div className="overlay-alt">
          {isJoin ? (
            <AppLink href="/" data-testid="create-own-room-link">
              {t('common.join.createOwn')}
            </AppLink>
          ) : (
            <AppLink href="/" data-testid="choose-different-name-link">
              {t('common.join.chooseDifferent')}
            </AppLink>
          )}
        </div>
      </div>
    </div>
  );
}
