/**
 * The moderation viewer (docs/product/admin.md ADM7): full screen, up to 50 messages of the room across all its channels,
 * decrypted by the server with the room's key (each opening is audited there). Each message: author, channel name,
 * channel type (if not a topic), a Decrypted or Decrypt Error badge, time, content, and its type if not plain text.
 * The banner Superadmin Moderation Mode says what this is. Refresh and Close. A Radix dialog: focus moves in and back.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { AdminRoom, ModerationMessage } from '@ephemera/proto';
import { adminApi, listOf } from '../../lib/adminApi.ts';
import type { ToastApi } from '../../components/overlays/Toast.tsx';
import { Badge } from './ui.tsx';
import { dateTimeOf } from './format.ts';
import { useT } from '../../i18n/i18n.ts';

export function ModerationViewer({ room, toast, onClose }: { room: AdminRoom; toast: ToastApi; onClose(): void }) {
  const t = useT();
  const [messages, setMessages] = useState<ModerationMessage[] | null>(null);
  const [loading, setLoading] = useState(false);
  const refreshRef = useRef<HTMLButtonElement>(null);
  // no Dialog.Trigger (the room name opens it): focus goes back to what had it, as in Modal.tsx
  const [returnFocus] = useState(() => document.activeElement as HTMLElement | null);

  const load = useCallback(async () => {
    setLoading(true);
    const r = await adminApi.roomMessages(room.id);
    setLoading(false);
    if (r.ok) {
      setMessages(listOf<ModerationMessage>(r.data, 'messages'));
      return;
    }
    toast.error(r.status === 0 ? t('admin.viewer.loadError') : t('admin.viewer.loadFailed'));
  }, [room.id, toast, t]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="sa-viewer-backdrop" />
        <Dialog.Content
          className="sa-viewer"
          data-testid="sa-moderation-viewer"
          aria-describedby="sa-moderation-banner"
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            refreshRef.current?.focus();
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            if (returnFocus?.isConnected) returnFocus.focus();
          }}
        >
          <header className="sa-viewer-head">
            <Dialog.Title className="sa-viewer-title">{t('admin.viewer.title', { room: room.name })}</Dialog.Title>
            <div className="sa-header-actions">
              <button
                ref={refreshRef}
                type="button"
                className="button button-ghost"
                onClick={() => void load()}
                disabled={loading}
                data-testid="sa-viewer-refresh"
              >
                {loading ? t('admin.viewer.loading') : t('admin.refresh')}
              </button>
              <Dialog.Close className="button button-primary" data-testid="sa-viewer-close">
                {t('admin.viewer.close')}
              </Dialog.Close>
            </div>
          </header>
          <div
            id="sa-moderation-banner"
            className="sa-moderation-banner"
            role="note"
            data-testid="sa-moderation-banner"
          >
            <strong>{t('admin.viewer.superadminModerationMode')}</strong>
            <span>{t('admin.viewer.messagesAreDecryptedHereForModerationOnl')}</span>
          </div>
          <div className="sa-viewer-body">
            {messages === null ? (
              <p className="sa-muted">{loading ? t('admin.viewer.loadingMessages') : t('admin.viewer.notLoaded')}</p>
            ) : messages.length === 0 ? (
              <p className="sa-muted" data-testid="sa-viewer-empty">
                {t('admin.viewer.noMessagesInThisRoom')}
              </p>
            ) : (
              <ol className="sa-messages" data-testid="sa-messages">
                {messages.map((m) => (
                  <li key={m.id} className="sa-message" data-testid="sa-message" data-channel={m.channelName}>
                    <div className="sa-message-meta">
                      <strong data-testid="sa-message-author">{m.authorName || m.username}</strong>
                      <span className="sa-channel">#{m.channelName}</span>
                      {m.channelType !== 'topic' && (
                        <Badge tone="info" testId="sa-message-channel-type">
                          {m.channelType}
                        </Badge>
                      )}
                      {m.isDecrypted ? (
                        <Badge tone="good" testId="sa-message-decrypted">
                          {t('admin.viewer.decrypted')}
                        </Badge>
                      ) : (
                        <Badge tone="bad" testId="sa-message-decrypt-error" title={m.decryptError ?? undefined}>
                          {t('admin.viewer.decryptError')}
                        </Badge>
                      )}
                      {m.type && m.type !== 'text' && <Badge testId="sa-message-type">{m.type}</Badge>}
                      <time dateTime={m.timestamp} className="sa-muted">
                        {dateTimeOf(m.timestamp)}
                      </time>
                    </div>
                    <p className="sa-message-content" data-testid="sa-message-content">
                      {m.content}
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
