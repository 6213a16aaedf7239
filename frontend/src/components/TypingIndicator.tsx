/** "{name} is typing..." under the message list; an empty live region otherwise (so the change is announced). */
import { typingText } from '../state/typing.ts';

export function TypingIndicator({ names }: { names: readonly string[] }) {
  const text = typingText(names);
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
