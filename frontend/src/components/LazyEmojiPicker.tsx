/** The full emoji picker behind React.lazy: its code and data load the first time a picker opens. */
import { lazy, Suspense } from 'react';
import type { EmojiPickerProps } from './EmojiPicker.tsx';
import { useT } from '../i18n/i18n.ts';

const EmojiPicker = lazy(() => import('./EmojiPicker.tsx'));

export function LazyEmojiPicker(props: EmojiPickerProps) {
  const t = useT();
  return (
    <Suspense
      fallback={
        <div className="emoji-picker-status" data-testid="emoji-picker-loading">
          {t('room.emoji.loadingPicker')}
        </div>
      }
    >
      <EmojiPicker {...props} />
    </Suspense>
  );
}
