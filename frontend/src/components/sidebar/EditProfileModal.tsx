/**
 * Edit Profile (docs/product/files.md F9): username required (Username is required), max 30, unchanged
 * closes without saving, Failed to update profile on failure. A profile picture (images, 5 MB: Please select an
 * image file, Image size must be less than 5MB) is uploaded first (purpose avatar), then saved with the name.
 */
import { useState, type FormEvent } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { AlertIcon } from '../Icons.tsx';
import { MSG_PROFILE_FAILED } from '../../lib/commandTexts.ts';
import { uploadFile } from '../../lib/fileUpload.ts';
import { UI_TEXT } from '../../lib/texts.ts';
import { PROFILE_IMAGE_MAX_BYTES } from '@ephemera/proto/client';
import { useT } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

interface Props {
  username: string;
  onClose(): void;
  onSave(username: string, profilePicture?: string): Promise<{ ok: true } | { ok: false; message: string }>;
  /** the room and token the upload takes; absent: no picture field */
  fileAccess?: { workspaceId: string; userToken: string };
}

const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

export function EditProfileModal({ username, onClose, onSave, fileAccess }: Props) {
  const t = useT();
  const [value, setValue] = useState(username);
  const [picture, setPicture] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const name = value.trim();
    if (!name) {
      setError(errorText('PROFILE_USERNAME_REQUIRED', ''));
      return;
    }
    if (name === username && !picture) {
      onClose();
      return;
    } // unchanged: close without saving
    setBusy(true);
    setError(null);
    let pictureUrl: string | undefined;
    if (picture && fileAccess) {
      const up = await uploadFile({ ...fileAccess, purpose: 'avatar', file: picture, name: picture.name }).done;
      if (!up.ok) {
        setBusy(false);
        setError(up.message ? errorText(up.code, up.message) : t('roomside.profile.uploadFailed'));
        return;
      }
      pictureUrl = up.file.url;
    }
    const result = await onSave(name, pictureUrl);
    if (result.ok) {
      onClose();
      return;
    }
    setBusy(false);
    setError(errorText(null, result.message || MSG_PROFILE_FAILED));
  };

  return (
    <Modal title={t('roomside.sidebar.editProfile')} onClose={busy ? undefined : onClose} testId="edit-profile-modal">
      <form onSubmit={submit} className="modal-form" noValidate>
        <div className="field">
          <div className="field-head">
            <label htmlFor="profile-username">{t('roomside.profile.username')}</label>
            <span className="counter">
              {value.length}/{LIMITS.profileUsernameMax}
            </span>
          </div>
          <input
            id="profile-username"
            type="text"
            value={value}
            maxLength={LIMITS.profileUsernameMax}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            data-testid="profile-username-input"
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
          />
        </div>
        {fileAccess && (
          <div className="field">
            <label htmlFor="profile-picture">{t('roomside.profile.picture')}</label>
            <input
              id="profile-picture"
              type="file"
              accept={PICTURE_TYPES.join(',')}
              data-testid="profile-picture-input"
              onChange={(e) => {
                const f = e.target.files?.[0] ?? null;
                setError(null);
                if (f && !PICTURE_TYPES.includes(f.type)) {
                  setError(errorText('PROFILE_IMAGE_TYPE', ''));
                  setPicture(null);
                  return;
                }
                if (f && f.size > PROFILE_IMAGE_MAX_BYTES) {
                  setError(errorText('PROFILE_IMAGE_TOO_LARGE', ''));
                  setPicture(null);
                  return;
                }
                setPicture(f);
                // a file named and typed as an image that does not decode as one is refused before anything is sent
                if (f && typeof createImageBitmap === 'function') {
                  void createImageBitmap(f).then(
                    (b) => b.close(),
                    () => {
                      setError(UI_TEXT.imageReadFailed);
                      setPicture((p) => (p === f ? null : p));
                    },
                  );
                }
              }}
            />
          </div>
        )}
        {error && (
          <div className="form-error" role="alert" data-testid="profile-error">
            <AlertIcon size={16} /> <span>{error}</span>
          </div>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
            {t('roomside.action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy} data-testid="profile-save">
            {busy ? t('roomside.action.saving') : t('roomside.action.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
