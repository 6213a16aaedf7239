/**
 * Files sent without the upload dialog (docs/product/files.md F12): dropped on the chat, pasted into the composer,
 * or several chosen at once. Each file is checked on its own (type and size, F2/F3: a file over the room's limit
 * opens File Size Limit Exceeded, the others still go), uploads with its own progress, and is sent as a file
 * message to the channel it was added in once stored. Cancel aborts its request (nothing is sent); a network
 * failure keeps the item with Retry; a refusal keeps it with the server's text until dismissed.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ERRORS } from '@ephemera/proto/client';
import {
  isReadable,
  isRetryable,
  precheck,
  uploadFailureText,
  uploadFile,
  type StoredFile,
  type UploadHandle,
} from '../../lib/fileUpload.ts';
import { UI_TEXT } from '../../lib/texts.ts';
import { errorText } from '../../i18n/errorText.ts';

export interface QueuedUpload {
  id: string;
  channelId: string;
  name: string;
  size: number;
  /** 0..1 while uploading */
  progress: number;
  status: 'uploading' | 'failed';
  error: string | null;
  /** a network failure: the same upload can be tried again */
  retryable: boolean;
}

interface Access {
  workspaceId: string;
  userToken: string;
}

export interface UploadQueue {
  items: QueuedUpload[];
  /** false when one of them is over the room's size limit (the caller opens File Size Limit Exceeded) */
  add(files: readonly File[], channelId: string): boolean;
  cancel(id: string): void;
  retry(id: string): void;
  dismiss(id: string): void;
}

let nextId = 0;

export function useUploadQueue(
  access: () => Access,
  maxFileSizeMb: number,
  onStored: (file: StoredFile, channelId: string) => void,
): UploadQueue {
  const [items, setItems] = useState<QueuedUpload[]>([]);
  const files = useRef(new Map<string, File>());
  const handles = useRef(new Map<string, UploadHandle>());
  const latest = useRef({ access, onStored });
  latest.current = { access, onStored };

  const patch = useCallback((id: string, change: Partial<QueuedUpload>) => {
    setItems((list) => list.map((i) => (i.id === id ? { ...i, ...change } : i)));
  }, []);
  const remove = useCallback((id: string) => {
    files.current.delete(id);
    handles.current.delete(id);
    setItems((list) => list.filter((i) => i.id !== id));
  }, []);

  const start = useCallback(
    async (id: string, channelId: string) => {
      const file = files.current.get(id);
      if (!file) return;
      patch(id, { status: 'uploading', progress: 0, error: null, retryable: false });
      if (!(await isReadable(file))) {
        patch(id, { status: 'failed', error: UI_TEXT.fileReadFailed });
        return;
      }
      if (!files.current.has(id)) return; // cancelled meanwhile
      const handle = uploadFile({
        ...latest.current.access(),
        purpose: 'message',
        channelId,
        file,
        name: file.name,
        onProgress: (progress) => patch(id, { progress }),
      });
      handles.current.set(id, handle);
      const result = await handle.done;
      if (handles.current.get(id) !== handle) return; // cancelled: the item is gone
      handles.current.delete(id);
      if (result.ok) {
        remove(id);
        latest.current.onStored(result.file, channelId);
        return;
      }
      patch(id, { status: 'failed', error: uploadFailureText(result), retryable: isRetryable(result) });
    },
    [patch, remove],
  );

  const add = useCallback(
    (chosen: readonly File[], channelId: string) => {
      let allFit = true;
      const added: QueuedUpload[] = [];
      for (const file of chosen) {
        const problem = precheck(file, maxFileSizeMb);
        if (problem === 'too-large') {
          allFit = false;
          continue;
        }
        const id = `upload-${++nextId}`;
        files.current.set(id, file);
        added.push({
          id,
          channelId,
          name: file.name,
          size: file.size,
          progress: 0,
          status: problem ? 'failed' : 'uploading',
          error: problem === 'type' ? errorText('FILE_TYPE_NOT_SUPPORTED', ERRORS.FILE_TYPE_NOT_SUPPORTED) : null,
          retryable: false,
        });
      }
      setItems((list) => [...list, ...added]);
      for (const item of added) if (item.status === 'uploading') void start(item.id, channelId);
      return allFit;
    },
    [maxFileSizeMb, start],
  );

  const cancel = useCallback(
    (id: string) => {
      const handle = handles.current.get(id);
      remove(id);
      handle?.abort();
    },
    [remove],
  );
  const retry = useCallback(
    (id: string) => {
      const item = items.find((i) => i.id === id);
      if (item?.retryable) void start(id, item.channelId);
    },
    [items, start],
  );

  // leaving the room aborts what is still uploading
  useEffect(() => {
    const open = handles.current;
    return () => {
      for (const h of open.values()) h.abort();
      open.clear();
    };
  }, []);

  return { items, add, cancel, retry, dismiss: remove };
}
