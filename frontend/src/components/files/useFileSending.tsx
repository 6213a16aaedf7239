/**
 * The composer's file and voice actions for one channel: a chosen file opens the upload dialog, an upload that
 * finished is sent as a file message (send-message { fileId }: the server takes its type and text from the
 * stored file), a recording is uploaded as a voice file and sent the same way. Failures go to the room's notice.
 */
import { useCallback, useState, type ReactNode } from 'react';
import type { RoomSession } from '../../lib/session.ts';
import { uploadFile, type StoredFile } from '../../lib/fileUpload.ts';
import { FileUploadModal } from './FileUploadModal.tsx';
import './files.css';

export function useFileSending(
  session: RoomSession,
  channelId: string | null,
  maxFileSizeMb: number,
): {
  onAttach(file: File): void;
  onVoice(blob: Blob, durationMs: number): void;
  onMicError(message: string): void;
  modal: ReactNode;
} {
  const [chosen, setChosen] = useState<File | null>(null);
  const send = useCallback(
    (f: StoredFile) => {
      session.sendMessage(f.caption || f.name, { file: { id: f.id, type: f.kind } });
    },
    [session],
  );
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
        if (r.ok) send(r.file);
        else session.showNotice(r.message);
      });
    },
    [session, channelId, send],
  );
  const onMicError = useCallback((message: string) => session.showNotice(message), [session]);
  const modal =
    chosen && channelId ? (
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
  return { onAttach: setChosen, onVoice, onMicError, modal };
}
