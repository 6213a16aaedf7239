/**
 * Edit Profile (specs/rooms.md sections 2, 5, 8): username required (Username is required), max 30, unchanged
 * closes without saving, Failed to update profile on failure. The picture upload comes with the files issue.
 */
import { useState, type FormEvent } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { AlertIcon } from '../Icons.tsx';
import { MSG_USERNAME_REQUIRED } from '../../lib/conversationCommands.ts';

interface Props {
  username: string;
  onClose(): void;
  onSave(username: string): Promise<{ ok: true } | { ok: false; message: string }>;
}

export function EditProfileModal({ username, onClose, onSave }: Props) {
  const [value, setValue] = useState(username);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const name = value.trim();
    if (!name) { setError(MSG_USERNAME_REQUIRED); return; }
    if (name === username) { onClose(); return; } // unchanged: close without saving
    setBusy(true);
    setError(null);
    const result = await onSave(name);
    if (result.ok) { onClose(); return; }
    setBusy(false);
    setError(result.message || 'Failed to update profile');
  };

  return (
    <Modal title="Edit Profile" onClose={busy ? undefined : onClose} testId="edit-profile-modal">
      <form onSubmit={submit} className="modal-form" noValidate>
        <div className="field">
          <div className="field-head">
            <label htmlFor="profile-username">Username</label>
            <span className="counter">{value.length}/{LIMITS.profileUsernameMax}</span>
          </div>
          <input id="profile-username" type="text" value={value} maxLength={LIMITS.profileUsernameMax} autoComplete="off"
            spellCheck={false} aria-invalid={error ? true : undefined} data-testid="profile-username-input"
            onChange={(e) => { setValue(e.target.value); setError(null); }} />
        </div>
        {error && <div className="form-error" role="alert" data-testid="profile-error"><AlertIcon size={16} /> <span>{error}</span></div>}
        <div className="modal-actions">
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" className="button button-primary" disabled={busy} data-testid="profile-save">{busy ? 'Saving...' : 'Save'}</button>
        </div>
      </form>
    </Modal>
  );
}
