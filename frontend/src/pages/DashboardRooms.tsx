/**
 * The dashboard's rooms (docs/product/accounts.md A7-A8): the rows with their role (the
 * owner's crown), open (a fresh owner token for this device), delete (confirm, then reload after 500 ms), and the
 * room-create form with its debounced availability check and optional password.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { DashboardRoom } from '@ephemera/proto';
import { api } from '../lib/api.ts';
import { saveAuth } from '../lib/storage.ts';
import { accountApi } from '../lib/account.ts';
import { checkRoomPassword } from '../lib/roomRules.ts';
import { UI_TEXT } from '../lib/texts.ts';
import { useT, type MessageId } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';

type Availability = 'idle' | 'checking' | 'available' | 'taken' | 'unknown';
const AVAILABILITY_TEXT: Record<Exclude<Availability, 'idle'>, MessageId> = {
  checking: 'account.rooms.checking',
  available: 'account.rooms.available',
  taken: 'account.rooms.taken',
  unknown: 'account.rooms.unknown',
};

/** Signs this browser into the room as its owner, then opens it (a full navigation, as after joining). */
async function openRoom(token: string, roomName: string, username: string, onError: (m: string) => void) {
  const r = await accountApi.generateRoomToken(token, roomName);
  if (!r.ok) {
    onError(errorText(null, r.status === 0 ? UI_TEXT.roomInfoFailed : r.message));
    return;
  }
  saveAuth({
    workspaceId: r.data.workspaceId,
    userToken: r.data.ownerToken,
    username,
    roomName: r.data.roomName,
    password: null,
  });
  window.location.assign(`/${encodeURIComponent(r.data.roomName)}`);
}

export function DashboardRooms({
  token,
  username,
  rooms,
  reload,
}: {
  token: string;
  username: string;
  rooms: DashboardRoom[];
  reload: () => void;
}) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [withPassword, setWithPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [availability, setAvailability] = useState<Availability>('idle');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const trimmed = name.trim();
    if (!trimmed) {
      setAvailability('idle');
      return;
    }
    setAvailability('checking');
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      void api.checkName(trimmed, { signal: ctrl.signal, timeoutMs: 8000 }).then((r) => {
        if (r.ok) setAvailability(r.data.available ? 'available' : 'taken');
        else if (r.kind !== 'aborted') setAvailability('unknown');
      });
    }, 500);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [name]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || availability !== 'available') return;
    if (withPassword) {
      const checked = checkRoomPassword(password);
      if (!checked.ok) {
        setError(errorText(null, checked.message));
        return;
      }
    }
    setBusy(true);
    setError(null);
    const r = await accountApi.createRoom(token, {
      name: name.trim(),
      username: username.slice(0, 20),
      hasPassword: withPassword,
      ...(withPassword ? { password } : {}),
    });
    setBusy(false);
    if (!r.ok) {
      setError(errorText(null, r.status === 0 ? UI_TEXT.createRoomRetry : r.message));
      return;
    }
    saveAuth({
      workspaceId: r.data.workspaceId,
      userToken: r.data.userToken,
      username: username.slice(0, 20),
      roomName: r.data.workspace.name,
      password: withPassword ? password : null,
    });
    window.location.assign(`/${encodeURIComponent(r.data.workspace.name)}`);
  };

  const remove = async (room: DashboardRoom) => {
    if (!window.confirm(t('account.rooms.deleteConfirm', { room: room.roomId }))) return;
    const r = await accountApi.deleteRoom(token, room.workspaceId);
    if (!r.ok) {
      setError(r.message ? errorText(null, r.message) : t('account.rooms.deleteFailed'));
      return;
    }
    setTimeout(reload, 500);
  };

  return (
    <section className="account-card" aria-labelledby="rooms-title">
      <h2 id="rooms-title">{t('account.rooms.title')}</h2>
      {error && (
        <p className="account-error" role="alert" data-testid="rooms-error">
          {error}
        </p>
      )}
      {rooms.length === 0 ? (
        <p data-testid="no-rooms">{t('account.rooms.none')}</p>
      ) : (
        <ul className="room-rows" data-testid="room-list">
          {rooms.map((room) => (
            <li key={room.id} className="room-row" data-testid="room-row">
              <span>
                <span className="room-name">{room.roomId}</span>
                {room.role === 'owner' && (
                  <span className="crown" data-testid="owner-crown" aria-label={t('account.rooms.owner')}>
                    👑 {t('account.rooms.owner')}
                  </span>
                )}
                {room.role === 'admin' && <span className="crown">{t('account.rooms.admin')}</span>}
              </span>
              <span className="account-actions">
                <button
                  type="button"
                  className="button button-primary"
                  onClick={() => void openRoom(token, room.roomId, username, setError)}
                >
                  {t('account.rooms.open')}
                </button>
                {room.role === 'owner' && (
                  <button
                    type="button"
                    className="button button-danger"
                    onClick={() => void remove(room)}
                    data-testid="delete-room"
                  >
                    {t('account.rooms.delete')}
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form className="account-create-form" onSubmit={create} noValidate data-testid="create-room-form">
        <h3>{t('account.rooms.createTitle')}</h3>
        <label>
          {t('account.rooms.roomName')}
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={50} data-testid="create-room-name" />
        </label>
        <span className="availability" data-state={availability} aria-live="polite">
          {availability === 'idle' ? '' : t(AVAILABILITY_TEXT[availability])}
        </span>
        <label className="checkbox-label">
          <input
            type="checkbox"
            checked={withPassword}
            onChange={(e) => {
              setWithPassword(e.target.checked);
              if (!e.target.checked) setPassword('');
            }}
          />{' '}
          {t('account.rooms.protect')}
        </label>
        {withPassword && (
          <label>
            {t('account.rooms.password')}
            <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
        )}
        <button className="button button-primary" disabled={busy || availability !== 'available'}>
          {busy ? t('account.rooms.creating') : t('account.rooms.create')}
        </button>
      </form>
    </section>
  );
}
