/** The full emoji picker behind React.lazy: its code and data load the first time a picker opens. */
import { lazy, Suspense } from 'react';
import type { EmojiPickerProps } from './EmojiPicker.tsx';

const EmojiPicker = lazy(() => import('./EmojiPicker.tsx'));

export function LazyEmojiPicker(props: EmojiPickerProps) {
  return (
    <Suspense
      fallback={
        <div className="emoji-picker-status" data-testid="emoji-picker-loading">
          Loading emoji…
        </div>
      }
    >
      <EmojiPicker {...props} />
    </Suspense>
  );
}
