import { useState, type FormEvent } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import type { RoomUser } from '@ephemera/proto';
import { Modal } from './Modal.tsx';
import { AlertIcon } from './Icons.tsx';
import { MemberPicker } from './sidebar/MemberPicker.tsx';
import { useT } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';
import { MSG_CREATE_CHANNEL_FAILED } from '../lib/commandTexts.ts';

interface Props {
  onClose(): void;
  /** memberIds: a private channel's members picked here (the creator is always one) */
  onCreate(
    name: string,
    isPrivate: boolean,
    memberIds: string[],
  ): Promise<{ ok: true } | { ok: false; message: string }>;
  /** the room's members, for the private channel's member picker */
  users?: readonly RoomUser[];
  selfId?: string | null;
}

export function CreateChannelModal({ onClose, onCreate, users = [], selfId = null }: Props) {
  const t = useT();
  const [name, setName] = useState('');
  const [isPrivate, setIsPrivate] = useState(false);
  const [members, setMembers] = useState<ReadonlySet<string>>(() => new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = name.trim();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!trimmed || busy) return;
    setBusy(true);
    setError(null);
    const result = await onCreate(trimmed, isPrivate, isPrivate ? [...members] : []);
    if (result.ok) {
      onClose();
      return;
    }
    setBusy(false);
    setError(errorText(null, result.message || MSG_CREATE_CHANNEL_FAILED));
  };

  return (
    <Modal title={t('roomside.createChannel.title')} onClose={busy ? undefined : onClose} testId="create-channel-modal">
      <form onSubmit={submit} className="modal-form" noValidate>
        <div className="field">
          <div className="field-head">
            <label htmlFor="channel-name">{t('roomside.channel.nameLabel')}</label>
            <span className="counter">
              {name.length}/{LIMITS.channelNameMax}
            </span>
          </div>
          <div className="input-with-prefix">
            <span aria-hidden="true">#</span>
            <input
              id="channel-name"
              data-testid="channel-name-input"
              type="text"
              value={name}
              maxLength={LIMITS.channelNameMax}
              placeholder={t('roomside.createChannel.placeholder')}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
            />
          </div>
          <p className="field-hint">{t('roomside.createChannel.hint')}</p>
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={isPrivate}
            onChange={(e) => setIsPrivate(e.target.checked)}
            data-testid="channel-private-checkbox"
          />
          <span>
            {t('roomside.createChannel.private')} <small>{t('roomside.createChannel.privateHint')}</small>
          </span>
        </label>
        {isPrivate && (
          <div className="field">
            <span className="field-label">{t('roomside.channel.members')}</span>
            <MemberPicker
              users={users}
              selfId={selfId}
              selected={members}
              disabled={busy}
              onToggle={(id) =>
                setMembers((prev) => {
                  const next = new Set(prev);
                  if (next.has(id)) next.delete(id);
                  else next.add(id);
                  return next;
                })
              }
            />
          </div>
        )}
        {error && (
          <div className="form-error" role="alert" data-testid="create-channel-error">
            <AlertIcon size={16} /> <span>{error}</span>
          </div>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
            {t('roomside.action.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={!trimmed || busy}
            data-testid="create-channel-submit"
          >
            {busy ? t('roomside.createChannel.creating') : t('roomside.createChannel.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
