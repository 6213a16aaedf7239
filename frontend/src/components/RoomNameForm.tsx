import { useState, type FormEvent } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import { useNameAvailability } from '../hooks/useNameAvailability.ts';
import { canCreateRoom, type NameAvailability } from '../lib/availability.ts';
import { useNavigate } from 'react-router';
import { roomPath } from '../lib/routes.ts';
import { AlertIcon, CheckIcon } from './Icons.tsx';
import { useT } from '../i18n/i18n.ts';
import { translateShared } from '../i18n/sharedTexts.ts';

function statusText(a: NameAvailability, name: string, t: ReturnType<typeof useT>): string {
  switch (a.state) {
    case 'idle':
      return name.trim().length === 0
        ? t('public.roomForm.hint')
        : name.trim().length < LIMITS.roomNameCheckMin
          ? t('public.roomForm.tooShort', { min: LIMITS.roomNameCheckMin })
          : '';
    case 'checking':
      return t('public.roomForm.checking');
    case 'available':
    case 'taken':
    case 'unknown':
      return translateShared(a.message);
  }
}

/** The landing page's room-name form with live availability. */
export function RoomNameForm() {
  const t = useT();
  const [name, setName] = useState('');
  const availability = useNameAvailability(name);
  const navigate = useNavigate();
  const host = typeof window !== 'undefined' ? window.location.host : '';
  const ready = canCreateRoom(availability);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    void navigate(`${roomPath(name.trim())}?create=true`);
  };

  return (
    <form className="room-form" onSubmit={submit} noValidate>
      <label className="room-form-label" htmlFor="room-name">
        {t('public.roomForm.label')}
      </label>
      <div className={`room-input state-${availability.state}`}>
        <span className="room-input-prefix" aria-hidden="true">
          {host}/
        </span>
        <input
          id="room-name"
          data-testid="room-name-input"
          type="text"
          value={name}
          maxLength={LIMITS.roomNameMax}
          placeholder={t('public.roomForm.placeholder')}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          aria-describedby="room-name-status"
          onChange={(e) => setName(e.target.value)}
        />
        <span className="room-input-counter" data-testid="room-name-counter">
          {name.length}/{LIMITS.roomNameMax}
        </span>
      </div>
      <div
        id="room-name-status"
        className={`availability availability-${availability.state}`}
        data-testid="name-availability"
        data-state={availability.state}
        role="status"
        aria-live="polite"
      >
        {availability.state === 'checking' && <span className="spinner spinner-sm" aria-hidden="true" />}
        {availability.state === 'available' && <CheckIcon size={16} />}
        {(availability.state === 'taken' || availability.state === 'unknown') && <AlertIcon size={16} />}
        <span>{statusText(availability, name, t)}</span>
      </div>
      <button
        type="submit"
        className="button button-primary button-lg room-form-submit"
        disabled={!ready}
        data-testid="create-room-button"
      >
        {t('public.roomForm.submit')}
      </button>
    </form>
  );
}
