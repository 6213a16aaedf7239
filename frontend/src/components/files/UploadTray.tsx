/**
 * The uploads of the open channel above the composer (docs/product/files.md F12): each file's name, size and
 * progress bar with Cancel while it uploads; after a failure its text, with Retry when the network failed, and
 * Dismiss.
 */
import { formatSize } from '../../lib/fileUpload.ts';
import type { QueuedUpload } from './useUploadQueue.ts';
import { useT } from '../../i18n/i18n.ts';

interface Props {
  items: QueuedUpload[];
  onCancel(id: string): void;
  onRetry(id: string): void;
  onDismiss(id: string): void;
}

export function UploadTray({ items, onCancel, onRetry, onDismiss }: Props) {
  const t = useT();
  if (items.length === 0) return null;
  return (
    <ul className="upload-tray" aria-label={t('room.upload.tray')} data-testid="upload-tray">
      {items.map((item) => {
        const percent = Math.round(item.progress * 100);
        return (
          <li
            key={item.id}
            className={`upload-item upload-item-${item.status}`}
            data-testid="upload-item"
            data-status={item.status}
            data-name={item.name}
          >
            <span className="upload-item-name">
              {item.name} <span className="muted">({formatSize(item.size)})</span>
            </span>
            {item.status === 'uploading' ? (
              <>
                <div
                  className="upload-progress"
                  role="progressbar"
                  aria-label={t('room.upload.uploading', { name: item.name })}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  data-testid="upload-item-progress"
                >
                  <span style={{ width: `${percent}%` }} />
                </div>
                <button
                  type="button"
                  className="button button-ghost button-sm"
                  onClick={() => onCancel(item.id)}
                  data-testid="upload-item-cancel"
                >
                  {t('room.upload.cancel')}
                </button>
              </>
            ) : (
              <>
                <span className="form-error" role="alert" data-testid="upload-item-error">
                  {item.error}
                </span>
                {item.retryable && (
                  <button
                    type="button"
                    className="button button-ghost button-sm"
                    onClick={() => onRetry(item.id)}
                    data-testid="upload-item-retry"
                  >
                    {t('room.upload.retry')}
                  </button>
                )}
                <button
                  type="button"
                  className="button button-ghost button-sm"
                  onClick={() => onDismiss(item.id)}
                  data-testid="upload-item-dismiss"
                >
                  {t('room.upload.dismiss')}
                </button>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
