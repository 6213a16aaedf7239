/**
 * The composer (docs/product/messages.md M1, M11, M16): text area up to 80 px high, max 2000 characters with a
 * counter above 1800, Enter sends and Shift+Enter adds a line, empty or blank is not sent; the reply bar, the
 * draft's link preview (dismissible), typing signals and an emoji picker that inserts at the cursor. Files: the
 * picker takes several at once, and pasted files upload (docs/product/files.md F12).
 */
import {
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { LIMITS } from '@ephemera/proto/client';
import { useTyping } from '../hooks/useTyping.ts';
import { useLinkPreview } from '../hooks/useLinkPreview.ts';
import type { PreviewResult } from '../lib/chatCommands.ts';
import { Popover } from './ui/Popover.tsx';
import { LazyEmojiPicker } from './LazyEmojiPicker.tsx';
import { LinkPreviewCard } from './LinkPreviewCard.tsx';
import { ReplyBar } from './ReplyBar.tsx';
import { SendIcon } from './Icons.tsx';
import { MicIcon, PaperclipIcon, SmileIcon } from './ChatIcons.tsx';
import { ACCEPT_ATTRIBUTE } from '../lib/fileUpload.ts';
import { useT } from '../i18n/i18n.ts';

// the recorder (MediaRecorder, its bar) is a chunk of its own, fetched as the composer first shows: until then an
// inert microphone holds its place (the initial JavaScript budget, bundle-budget.ts)
const VoiceRecorder = lazy(() => import('./files/VoiceRecorder.tsx').then((m) => ({ default: m.VoiceRecorder })));
const micPlaceholder = (
  <span className="icon-button" aria-hidden="true">
    <MicIcon size={20} />
  </span>
);

export const COMPOSER_MAX_HEIGHT_PX = 80;

export interface ReplyTarget {
  messageId: string;
  authorName: string;
  content: string;
}

export interface SendExtras {
  replyTo?: { messageId: string } | null;
  linkPreview?: { url: string } | null;
}

interface Props {
  channelId: string;
  /** "#general" or the DM partner's name */
  placeholderName: string;
  disabled: boolean;
  onSend(content: string, extra: SendExtras): boolean;
  replyTo: ReplyTarget | null;
  onCancelReply(): void;
  onTyping(channelId: string, typing: boolean): void;
  fetchPreview(url: string, signal: AbortSignal): Promise<PreviewResult>;
  /** a file chosen for upload (the upload dialog), a finished voice recording, a refused microphone */
  onAttach?(file: File): void;
  /** several files chosen at once, or files pasted (docs/product/files.md F12) */
  onAttachMany?(files: File[]): void;
  onVoice?(blob: Blob, durationMs: number): void;
  onMicError?(message: string): void;
}

export function Composer({
  channelId,
  placeholderName,
  disabled,
  onSend,
  replyTo,
  onCancelReply,
  onTyping,
  fetchPreview,
  onAttach,
  onAttachMany,
  onVoice,
  onMicError,
}: Props) {
  const t = useT();
  const [value, setValue] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const [emojiOpen, setEmojiOpen] = useState(false);
  /** a voice message is being recorded: the recording bar takes the composer's row */
  const [recording, setRecording] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const typing = useTyping(channelId, onTyping);
  const link = useLinkPreview(value, fetchPreview);
  const canSend = !disabled && value.trim().length > 0 && value.length <= LIMITS.messageMax;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, COMPOSER_MAX_HEIGHT_PX)}px`;
    el.style.overflowY = el.scrollHeight > COMPOSER_MAX_HEIGHT_PX ? 'auto' : 'hidden';
  }, [value]);

  // choosing Reply puts the cursor here
  useEffect(() => {
    if (replyTo) ref.current?.focus();
  }, [replyTo]);

  const change = (next: string) => {
    setValue(next);
    typing.input(next);
  };

  const send = () => {
    if (!canSend) return;
    const extra: SendExtras = {
      replyTo: replyTo ? { messageId: replyTo.messageId } : null,
      linkPreview: link.preview ? { url: link.preview.url } : null,
    };
    if (onSend(value, extra)) {
      setValue('');
      typing.stop();
      onCancelReply();
    }
    ref.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter inserts a line break
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    } else if (e.key === 'Escape' && replyTo) {
      e.preventDefault();
      onCancelReply();
    }
  };

  // a paste of files alone (a screenshot, an image copied from another page) uploads them; text pastes as text
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (!onAttachMany || disabled) return;
    const pasted = Array.from(e.clipboardData.files);
    if (pasted.length === 0 || e.clipboardData.types.includes('text/plain')) return;
    e.preventDefault();
    onAttachMany(pasted);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const insertEmoji = (emoji: string) => {
    const el = ref.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const next = (value.slice(0, start) + emoji + value.slice(end)).slice(0, LIMITS.messageMax);
    change(next);
    setEmojiOpen(false);
    requestAnimationFrame(() => {
      el?.focus();
      const at = Math.min(start + emoji.length, next.length);
      el?.setSelectionRange(at, at);
    });
  };

  const showCounter = value.length > LIMITS.messageCounterFrom;

  return (
    <form className="composer" onSubmit={onSubmit}>
      {replyTo && <ReplyBar authorName={replyTo.authorName} content={replyTo.content} onCancel={onCancelReply} />}
      {link.preview && (
        <LinkPreviewCard preview={link.preview} onDismiss={link.dismiss} testId="composer-link-preview" />
      )}
      {link.loading && !link.preview && (
        <div className="link-preview-loading" role="status" data-testid="link-preview-loading">
          <span className="spinner spinner-sm" aria-hidden="true" /> {t('room.composer.loadingPreview')}
        </div>
      )}
      <div className={`composer-box${recording ? ' recording' : ''}`}>
        <Popover
          label={t('room.composer.emoji')}
          open={emojiOpen}
          onOpenChange={setEmojiOpen}
          side="top"
          align="start"
          className="emoji-popover"
          trigger={
            <button
              type="button"
              className="icon-button composer-emoji"
              aria-label={t('room.composer.insertEmoji')}
              data-testid="composer-emoji"
            >
              <SmileIcon size={20} />
            </button>
          }
        >
          {emojiOpen && <LazyEmojiPicker onPick={insertEmoji} />}
        </Popover>
        {onAttach && (
          <>
            <button
              type="button"
              className="icon-button"
              aria-label={t('room.composer.attach')}
              onClick={() => fileInput.current?.click()}
              disabled={disabled}
              data-testid="composer-attach"
            >
              <PaperclipIcon size={20} />
            </button>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept={ACCEPT_ATTRIBUTE}
              multiple={Boolean(onAttachMany)}
              data-testid="composer-file-input"
              onChange={(e) => {
                const chosen = Array.from(e.target.files ?? []);
                e.target.value = '';
                if (chosen.length > 1 && onAttachMany) onAttachMany(chosen);
                else if (chosen[0]) onAttach(chosen[0]);
              }}
            />
          </>
        )}
        <textarea
          ref={ref}
          value={value}
          rows={1}
          maxLength={LIMITS.messageMax}
          placeholder={t('room.composer.placeholder', { name: placeholderName })}
          aria-label={t('room.composer.placeholder', { name: placeholderName })}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          data-testid="composer-textarea"
        />
        {showCounter && (
          <span
            className={`char-counter${value.length >= LIMITS.messageMax ? ' at-limit' : ''}`}
            data-testid="char-counter"
          >
            {value.length}/{LIMITS.messageMax}
          </span>
        )}
        {onVoice && (
          <Suspense fallback={micPlaceholder}>
            <VoiceRecorder
              disabled={disabled}
              onRecorded={onVoice}
              onError={(m) => onMicError?.(m)}
              onRecordingChange={setRecording}
            />
          </Suspense>
        )}
        <button
          type="submit"
          className="send-button"
          disabled={!canSend}
          aria-label={t('room.composer.send')}
          data-testid="send-button"
        >
          <SendIcon size={18} />
        </button>
      </div>
      <p className="composer-hint">{t('room.composer.hint')}</p>
    </form>
  );
}
