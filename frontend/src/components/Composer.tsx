import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS } from '@ephemera/proto';
import { SendIcon } from './Icons.tsx';

export const COMPOSER_MAX_HEIGHT_PX = 80;

interface Props {
  channelName: string;
  disabled: boolean;
  onSend(content: string): boolean;
}

export function Composer({ channelName, disabled, onSend }: Props) {
  const [value, setValue] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  const canSend = !disabled && value.trim().length > 0 && value.length <= LIMITS.messageMax;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, COMPOSER_MAX_HEIGHT_PX)}px`;
    el.style.overflowY = el.scrollHeight > COMPOSER_MAX_HEIGHT_PX ? 'auto' : 'hidden';
  }, [value]);

  const send = () => {
    if (!canSend) return;
    if (onSend(value)) setValue('');
    ref.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter inserts a line break
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const showCounter = value.length > LIMITS.messageCounterFrom;

  return (
    <form className="composer" onSubmit={onSubmit}>
      <div className="composer-box">
        <textarea ref={ref} value={value} rows={1} maxLength={LIMITS.messageMax}
          placeholder={`Message #${channelName}`} aria-label={`Message #${channelName}`}
          onChange={(e) => setValue(e.target.value)} onKeyDown={onKeyDown} data-testid="composer-textarea" />
        {showCounter && (
          <span className={`char-counter${value.length >= LIMITS.messageMax ? ' at-limit' : ''}`} data-testid="char-counter">
            {value.length}/{LIMITS.messageMax}
          </span>
        )}
        <button type="submit" className="send-button" disabled={!canSend} aria-label="Send message" data-testid="send-button">
          <SendIcon size={18} />
        </button>
      </div>
      <p className="composer-hint">Enter to send · Shift+Enter for a new line</p>
    </form>
  );
}
