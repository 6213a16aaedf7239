/**
 * Members of a private channel, for an owner or admin: tick to add, untick to remove (update-channel-members).
 * Removing anyone is confirmed first, naming them (member removal confirm, docs/product/rooms.md R28): they lose the
 * channel and its messages at once.
 */
import { useState } from 'react';
import type { Channel, RoomUser } from '@ephemera/proto';
import { Modal } from '../Modal.tsx';
import { AlertIcon } from '../Icons.tsx';
import { MemberPicker } from './MemberPicker.tsx';
import { useT } from '../../i18n/i18n.ts';
import { Trans } from '../../i18n/Trans.tsx';
import { errorText } from '../../i18n/errorText.ts';

interface Props {
  channel: Channel;
  users: readonly RoomUser[];
  selfId: string | null;
  onClose(): void;
  onSave(add: string[], remove: string[]): Promise<{ ok: true } | { ok: false; message: string }>;
}

export function ChannelMembersModal({ channel, users, selfId, onClose, onSave }: Props) {
  const t = useT();
  const [selected, setSelected] = useState(() => new Set(channel.memberIds));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** the names about to be removed, while the confirmation shows */
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const save = async (confirmed: boolean) => {
    const add = [...selected].filter((id) => !channel.memberIds.includes(id));
    const remove = channel.memberIds.filter((id) => !selected.has(id) && id !== selfId);
    if (add.length === 0 && remove.length === 0) {
      onClose();
      return;
    }
    if (remove.length > 0 && !confirmed) {
      setConfirming(remove.map((id) => users.find((u) => u.id === id)?.username ?? t('roomside.members.formerMember')));
      return;
    }
    setConfirming(null);
    setBusy(true);
    setError(null);
    const result = await onSave(add, remove);
    if (result.ok) {
      onClose();
      return;
    }
    setBusy(false);
    setError(errorText(null, result.message));
  };
  return (
    <Modal
      title={t('roomside.members.title', { channel: channel.name })}
      onClose={busy ? undefined : onClose}
      testId="channel-members-modal"
      size="md"
    >
      {confirming ? (
        <div className="modal-form" data-testid="remove-members-confirm">
          <p>
            <Trans
              id="roomside.members.removeConfirm"
              values={{ names: confirming.join(', '), channel: channel.name }}
              components={{ 0: <strong /> }}
            />
          </p>
          <div className="modal-actions">
            <button
              type="button"
              className="button button-ghost"
              onClick={() => setConfirming(null)}
              autoFocus
              data-testid="remove-members-back"
            >
              {t('roomside.action.back')}
            </button>
            <button
              type="button"
              className="button button-danger"
              onClick={() => void save(true)}
              data-testid="remove-members-confirm-button"
            >
              {t('roomside.action.remove')}
            </button>
          </div>
        </div>
      ) : (
        <div className="modal-form">
          <MemberPicker users={users} selfId={selfId} selected={selected} onToggle={toggle} disabled={busy} />
          {error && (
            <div className="form-error" role="alert" data-testid="channel-members-error">
              <AlertIcon size={16} /> <span>{error}</span>
            </div>
          )}
          <div className="modal-actions">
            <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
              {t('roomside.action.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              onClick={() => void save(false)}
              disabled={busy}
              data-testid="channel-members-save"
            >
              {busy ? t('roomside.action.saving') : t('roomside.action.save')}
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
