/** "{name} is typing..." under the message list; an empty live region otherwise (so the change is announced). */
import { typingText } from '../state/typing.ts';
import { useLocale } from '../i18n/i18n.ts';

/** `others`: typers a big room counts without naming them (state/onlineSlice.ts) */
export function TypingIndicator({ names, others = 0 }: { names: readonly string[]; others?: number }) {
  useLocale(); // the line is built in the active language: a change of language renders it again
  const text = typingText(names, others);
  return (
    <div
      className="typing-indicator"
      aria-live="polite"
      data-testid="typing-indicator"
      data-active={text ? 'true' : 'false'}
    >
      {text && (
        <>
          <span className="typing-dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span data-testid="typing-text">{text}</span>
        </>
      )}
    </div>
  );
}
