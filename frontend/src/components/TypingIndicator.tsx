/** "{name} is typing..." under the message list; an empty live region otherwise (so the change is announced). */
import { typingText } from '../state/typing.ts';

/** `others`: typers a big room counts without naming them (state/onlineSlice.ts) */
export function TypingIndicator({ names, others = 0 }: { names: readonly string[]; others?: number }) {
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
