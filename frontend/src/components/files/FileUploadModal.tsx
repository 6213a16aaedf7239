/**
 * File upload (docs/product/files.md F1-F3, F6): preview, optional caption (200), upload with a
 * progress bar and Cancel; the server's error text when it refuses. A file above the room's maxFileSize opens
 * File Size Limit Exceeded (an upgrade dialog) before anything is sent; a type outside the list shows
 * File type not supported.
 */
import { useEffect, useRef, useState } from 'react';
import { CAPTION_MAX, ERRORS } from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { UpgradePromptModal } from '../UpgradePromptModal.tsx';
import {
  formatSize,
  isReadable,
  precheck,
  uploadFailureText,
  uploadFile,
  type StoredFile,
  type UploadHandle,
} from '../../lib/fileUpload.ts';
import { UI_TEXT } from '../../lib/texts.ts';
import { useT } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

interface Props {
  file: File;
  workspaceId: string;
  userToken: string;
  channelId: string;
  maxFileSizeMb: number;
  onUploaded(file: StoredFile): void;
  onClose(): void;
}

export function FileSizeLimitModal({ maxFileSizeMb, onClose }: { maxFileSizeMb: number; onClose(): void }) {
  const t = useT();
  return (
    <UpgradePromptModal
      title={t('room.file.limitTitle')}
      testId="file-size-limit-modal"
      linkTestId="file-upgrade-link"
      onClose={onClose}
    >
      <p>{t('room.file.limitText', { max: String(maxFileSizeMb) })}</p>
    </UpgradePromptModal>
  );
}

export function FileUploadModal({
  file,
  workspaceId,
  userToken,
  channelId,
  maxFileSizeMb,
  onUploaded,
  onClose,
}: Props) {
  const t = useT();
  const problem = precheck(file, maxFileSizeMb);
  const [caption, setCaption] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(
    problem === 'type' ? errorText('FILE_TYPE_NOT_SUPPORTED', ERRORS.FILE_TYPE_NOT_SUPPORTED) : null,
  );
  const upload = useRef<UploadHandle | null>(null);
  const [preview] = useState(() =>
    file.type.startsWith('image/') || file.type.startsWith('video/') ? URL.createObjectURL(file) : null,
  );
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
      upload.current?.abort();
    },
    [preview],
  );

  if (problem === 'too-large') return <FileSizeLimitModal maxFileSizeMb={maxFileSizeMb} onClose={onClose} />;

  const start = async () => {
    setError(null);
    setProgress(0);
    const readable = await isReadable(file);
    if (!readable) {
      setProgress(null);
      setError(UI_TEXT.fileReadFailed);
      return;
    }
    upload.current = uploadFile({
      workspaceId,
      userToken,
      purpose: 'message',
      channelId,
      caption,
      file,
      name: file.name,
      onProgress: setProgress,
    });
    const result = await upload.current.done;
    upload.current = null;
    if (result.ok) {
      onUploaded(result.file);
      return;
    }
    setProgress(null);
    setError(uploadFailureText(result));
  };
  const cancel = () => {
    upload.current?.abort();
    upload.current = null;
    setProgress(null);
  };
  const busy = progress !== null;

  return (
    <Modal
      title={t('room.file.uploadTitle')}
      onClose={busy ? undefined : onClose}
      size="md"
      testId="file-upload-modal"
      footer={
        busy ? (
          <button type="button" className="button button-ghost" onClick={cancel} data-testid="upload-cancel">
            {t('room.upload.cancel')}
          </button>
        ) : (
          <>
            <button type="button" className="button button-ghost" onClick={onClose}>
              {t('room.file.close')}
            </button>
            <button
              type="button"
              className="button button-primary"
              onClick={start}
              disabled={problem === 'type'}
              data-testid="upload-start"
            >
              {t('room.file.upload')}
            </button>
          </>
        )
      }
    >
      <div className="file-upload-preview">
        {preview && file.type.startsWith('image/') && (
          <img src={preview} alt={t('room.file.preview', { name: file.name })} />
        )}
        {preview && file.type.startsWith('video/') && <video src={preview} controls muted />}
        <p className="file-upload-name">
          <span aria-hidden="true">📄</span> {file.name} <span className="muted">({formatSize(file.size)})</span>
        </p>
      </div>
      <label className="field">
        <span>{t('room.file.caption')}</span>
        <input
          value={caption}
          maxLength={CAPTION_MAX}
          onChange={(e) => setCaption(e.target.value)}
          disabled={busy}
          data-testid="upload-caption"
        />
      </label>
      {busy && (
        <div
          className="upload-progress"
          role="progressbar"
          aria-label={t('room.file.progress')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round((progress ?? 0) * 100)}
          data-testid="upload-progress"
        >
          <span style={{ width: `${Math.round((progress ?? 0) * 100)}%` }} />
        </div>
      )}
      {error && (
        <p className="form-error" role="alert" data-testid="upload-error">
          {error}
        </p>
      )}
    </Modal>
  );
}
