/** Members of a private channel, for an owner or admin: tick to add, untick to remove (update-channel-members). */
import { useState } from 'react';
import type { Channel, RoomUser } from '@ephemera/proto';
import { Modal } from '../Modal.tsx';
import { AlertIcon } from '../Icons.tsx';
import { MemberPicker } from './MemberPicker.tsx';

interface Props {
  channel: Channel;
  users: readonly RoomUser[];
  selfId: string | null;
  onClose(): void;
  onSave(add: string[], remove: string[]): Promise<{ ok: true } | { ok: false; message: string }>;
}

export function ChannelMembersModal({ channel, users, selfId, onClose, onSave }: Props) {
  const [selected, setSelected] = useState(() => new Set(channel.memberIds));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = (id: string) => setSelected((prev) => {
    const next = new Set(prev);
    if (next.has(id)) next.delete(id); else next.add(id);
    return next;
  });
  const save = async () => {
    const add = [...selected].filter((id) => !channel.memberIds.includes(id));
    const remove = channel.memberIds.filter((id) => !selected.has(id) && id !== selfId);
    if (add.length === 0 && remove.length === 0) { onClose(); return; }
    setBusy(true);
    setError(null);
    const result = await onSave(add, remove);
    if (result.ok) { onClose(); return; }
    setBusy(false);
    setError(result.message);
  };
  return (
    <Modal title={`Members of #${channel.name}`} onClose={busy ? undefined : onClose} testId="channel-members-modal" size="md">
      <div className="modal-form">
        <MemberPicker users={users} selfId={selfId} selected={selected} onToggle={toggle} disabled={busy} />
        {error && <div className="form-error" role="alert" data-testid="channel-members-error"><AlertIcon size={16} /> <span>{error}</span></div>}
        <div className="modal-actions">
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="button" className="button button-primary" onClick={() => void save()} disabled={busy} data-testid="channel-members-save">
            {busy ? 'Saving...' : 'Save'}
          </button>
        </div>
      </div>
    </Modal>
  );
}
