import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import { useUsernameAvailability } from '../hooks/useUsernameAvailability.ts';
import { createRoom, joinRoom } from '../lib/joinRoom.ts';
import { checkRoomPassword } from '../lib/roomRules.ts';
import { saveAuth } from '../lib/storage.ts';
import { roomPath } from '../lib/routes.ts';
import { AppLink } from './AppLink.tsx';
import { AlertIcon, CheckIcon, LockIcon, LogoMark } from './Icons.tsx';

export interface JoinOverlayProps {
  mode: 'join' | 'create';
  roomName: string;
  workspaceId: string | null;
  isPasswordProtected: boolean;
}

/** The join or setup overlay: choose a username (and a password), then create or join over HTTP. */
export function JoinOverlay({ mode, roomName, workspaceId, isPasswordProtected }: JoinOverlayProps) {
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
      setError('Please enter a username');
      return;
    }
    if (!usernameOk) return;
    const pw = password.trim();
    if (needsPassword && !pw) {
      setError('Please enter a password');
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
            <p className="overlay-kicker">You're invited to chat in</p>
            <h1 className="overlay-title" data-testid="overlay-room-name">
              {roomName}
            </h1>
          </>
        ) : (
          <>
            <h1 className="overlay-title">Setup Room</h1>
            <p className="overlay-sub">
              You're creating <strong data-testid="overlay-room-name">{roomName}</strong>. You'll be its owner.
            </p>
          </>
        )}

        <form className="overlay-form" onSubmit={onFormSubmit} noValidate>
          <div className="field">
            <div className="field-head">
              <label htmlFor="username">Your username</label>
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
              placeholder="e.g. alex"
              autoComplete="nickname"
              autoCapitalize="off"
              spellCheck={false}
              onChange={(e) => {
                setUsername(e.target.value);
                setError(null);
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
                    <span className="spinner spinner-sm" aria-hidden="true" /> Checking username…
                  </>
                )}
                {availability.state === 'available' && (
                  <>
                    <CheckIcon size={14} /> {availability.message}
                  </>
                )}
                {availability.state === 'unavailable' && (
                  <>
                    <AlertIcon size={14} /> {availability.message}
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
              <span>Password protect this room</span>
            </label>
          )}

          {needsPassword && (
            <div className="field">
              <div className="field-head">
                <label htmlFor="room-password">{isJoin ? 'Room password' : 'Choose a password'}</label>
                {isJoin && (
                  <span className="field-hint">
                    <LockIcon size={12} /> This room is password protected
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
                placeholder={isJoin ? 'Enter the room password' : 'Anyone joining will need it'}
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
            {submitting ? (isJoin ? 'Joining...' : 'Creating...') : isJoin ? 'Join Room' : 'Create & Join Room'}
          </button>
        </form>

        <div className="overlay-alt">
          {isJoin ? (
            <AppLink href="/" data-testid="create-own-room-link">
              Create own room instead
            </AppLink>
          ) : (
            <AppLink href="/" data-testid="choose-different-name-link">
              Choose different name
            </AppLink>
          )}
        </div>
      </div>
    </div>
  );
}
