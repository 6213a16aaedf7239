/**
 * Files dragged onto the chat (docs/product/files.md F12): while files are over it the drop zone shows, a drop
 * hands them over. Text or links dragged around the page are left to the browser.
 */
import { useCallback, useRef, useState, type DragEvent } from 'react';

const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

export function useFileDrop(onFiles: ((files: File[]) => void) | null) {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them to know when the pointer left the chat
  const depth = useRef(0);
  const onDragEnter = useCallback(
    (e: DragEvent) => {
      if (!onFiles || !carriesFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    [onFiles],
  );
  const onDragOver = useCallback(
    (e: DragEvent) => {
      if (!onFiles || !carriesFiles(e)) return;
      e.preventDefault(); // allows the drop
      e.dataTransfer.dropEffect = 'copy';
    },
    [onFiles],
  );
  const onDragLeave = useCallback(
    (e: DragEvent) => {
      if (!onFiles || !carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    [onFiles],
  );
  const onDrop = useCallback(
    (e: DragEvent) => {
      depth.current = 0;
      setDragging(false);
      if (!onFiles || !carriesFiles(e)) return;
      e.preventDefault(); // the browser would open the file instead
      const files = Array.from(e.dataTransfer.files);
      if (files.length > 0) onFiles(files);
    },
    [onFiles],
  );
  return { dragging, dropHandlers: { onDragEnter, onDragOver, onDragLeave, onDrop } };
}
