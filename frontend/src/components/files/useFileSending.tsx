/**
 * The composer's file and voice actions for one channel: one chosen file opens the upload dialog; several chosen at
 * once, dropped or pasted files go to the upload queue (UploadQueueView, loaded on first use; docs/product/files.md
 * F12). An upload that
 * finished is sent as a file message to its channel (send-message { fileId }: the server takes its type and text
 * from the stored file), a recording is uploaded as a voice file and sent the same way. Failures go to the room's
 * notice.
 */
import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import type { RoomSession } from '../../lib/session.ts';
import { uploadErrorText, uploadFile, type StoredFile } from '../../lib/fileUpload.ts';
import type { UploadBatch } from './UploadQueueView.tsx';

const UploadQueueView = lazy(() => import('./UploadQueueView.tsx'));
// the upload dialog loads when a file is chosen (the room page's initial code stays within PF17)
const FileUploadModal = lazy(() => import('./FileUploadModal.tsx').then((m) => ({ default: m.FileUploadModal })));
const FileSizeLimitModal = lazy(() => import('./FileUploadModal.tsx').then((m) => ({ default: m.FileSizeLimitModal })));
let batchIds = 0;
import './files.css';

export function useFileSending(
  session: RoomSession,
  channelId: string | null,
  maxFileSizeMb: number,
): {
  onAttach(file: File): void;
  /** several files at once (picked, dropped or pasted): each uploads in the queue */
  onAttachMany(files: File[]): void;
  /** the uploads of the open channel, with Cancel and Retry (nothing until files were added this way) */
  uploads: ReactNode;
  onVoice(blob: Blob, durationMs: number): void;
  onMicError(message: string): void;
  modal: ReactNode;
} {
  const [chosen, setChosen] = useState<File | null>(null);
  const [overLimit, setOverLimit] = useState(false);
  const send = useCallback(
    (f: StoredFile, inChannel?: string) => {
      session.sendMessage(f.caption || f.name, { file: { id: f.id, type: f.kind }, channelId: inChannel });
    },
    [session],
  );
  const fileAccess = useCallback(() => session.fileAccess(), [session]);
  const [batches, setBatches] = useState<UploadBatch[]>([]);
  const [queueStarted, setQueueStarted] = useState(false);
  const onAttachMany = useCallback(
    (files: File[]) => {
      if (!channelId || files.length === 0) return;
      setQueueStarted(true);
      setBatches((list) => [...list, { id: ++batchIds, files, channelId }]);
    },
    [channelId],
  );
  const onOverLimit = useCallback(() => setOverLimit(true), []);
  const onTaken = useCallback((lastId: number) => setBatches((list) => list.filter((b) => b.id > lastId)), []);
  const uploads = queueStarted ? (
    <Suspense fallback={null}>
      <UploadQueueView
        batches={batches}
        channelId={channelId}
        maxFileSizeMb={maxFileSizeMb}
        access={fileAccess}
        onStored={send}
        onOverLimit={onOverLimit}
        onTaken={onTaken}
      />
    </Suspense>
  ) : null;
  const onVoice = useCallback(
    (blob: Blob, durationMs: number) => {
      if (!channelId) return;
      const ext = blob.type.includes('ogg') ? 'ogg' : blob.type.includes('mp4') ? 'm4a' : 'webm';
      void uploadFile({
        ...session.fileAccess(),
        purpose: 'voice',
        channelId,
        durationMs,
        file: blob,
        name: `voice-message.${ext}`,
      }).done.then((r) => {
        if (r.ok) send(r.file, channelId);
        else session.showNotice(uploadErrorText(r));
      });
    },
    [session, channelId, send],
  );
  const onMicError = useCallback((message: string) => session.showNotice(message), [session]);
  const dialog = overLimit ? (
    <FileSizeLimitModal maxFileSizeMb={maxFileSizeMb} onClose={() => setOverLimit(false)} />
  ) : chosen && channelId ? (
    <FileUploadModal
      file={chosen}
      channelId={channelId}
      maxFileSizeMb={maxFileSizeMb}
      {...session.fileAccess()}
      onUploaded={(f) => {
        setChosen(null);
        send(f);
      }}
      onClose={() => setChosen(null)}
    />
  ) : null;
  const modal = dialog ? <Suspense fallback={null}>{dialog}</Suspense> : null;
  return { onAttach: setChosen, onAttachMany, uploads, onVoice, onMicError, modal };
}
