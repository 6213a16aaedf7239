/**
 * The upload queue and its tray (docs/product/files.md F12), loaded the first time files are dropped, pasted or
 * picked several at once (the room page's initial code stays within its budget, performance.md PF17). It takes the
 * batches handed to it in order, shows the open channel's uploads, and stays mounted while the room is open so
 * uploads go on across channel switches.
 */
import { useEffect, useRef } from 'react';
import type { StoredFile } from '../../lib/fileUpload.ts';
import { useUploadQueue } from './useUploadQueue.ts';
import { UploadTray } from './UploadTray.tsx';

export interface UploadBatch {
  id: number;
  files: readonly File[];
  channelId: string;
}

export interface UploadQueueViewProps {
  batches: readonly UploadBatch[];
  /** the open channel: only its uploads show */
  channelId: string | null;
  maxFileSizeMb: number;
  access(): { workspaceId: string; userToken: string };
  onStored(file: StoredFile, channelId: string): void;
  /** a batch held a file over the room's limit (File Size Limit Exceeded); the others went */
  onOverLimit(): void;
  /** the batches up to this id are in the queue: the caller can let go of them */
  onTaken(lastId: number): void;
}

export default function UploadQueueView({
  batches,
  channelId,
  maxFileSizeMb,
  access,
  onStored,
  onOverLimit,
  onTaken,
}: UploadQueueViewProps) {
  const queue = useUploadQueue(access, maxFileSizeMb, onStored);
  const taken = useRef(0);
  const { add } = queue;
  useEffect(() => {
    for (const batch of batches) {
      if (batch.id <= taken.current) continue;
      taken.current = batch.id;
      if (!add(batch.files, batch.channelId)) onOverLimit();
    }
    if (batches.length > 0) onTaken(taken.current);
  }, [batches, add, onOverLimit, onTaken]);
  return (
    <UploadTray
      items={queue.items.filter((i) => i.channelId === channelId)}
      onCancel={queue.cancel}
      onRetry={queue.retry}
      onDismiss={queue.dismiss}
    />
  );
}
