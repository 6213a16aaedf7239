/**
 * Inline edit of an own message (docs/product/messages.md M4): Enter saves, Escape cancels, leaving the field
 * saves; the content is trimmed, and an empty or unchanged edit is not saved.
 */
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { LIMITS } from '@ephemera/proto/client';
import { useT } from '../i18n/i18n.ts';

interface Props {
  initial: string;
  onSave(content: string): void;
  onCancel(): void;
}

export function MessageEditor({ initial, onSave, onCancel }: Props) {
  const t = useT();
  const [value, setValue] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  const done = useRef(false);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [value]);

  /** once: Enter and the blur that follows must not save twice */
  const finish = (save: boolean) => {
    if (done.current) return;
    done.current = true;
    const text = value.trim();
    if (save && text && text !== initial.trim()) onSave(text);
    else onCancel();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      finish(true);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      finish(false);
    }
  };

  return (
    <div className="message-editor">
      <textarea
        ref={ref}
        value={value}
        maxLength={LIMITS.messageMax}
        rows={1}
        aria-label={t('room.editor.label')}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => finish(true)}
        data-testid="edit-input"
      />
      <span className="message-editor-hint">{t('room.editor.hint')}</span>
    </div>
  );
}
