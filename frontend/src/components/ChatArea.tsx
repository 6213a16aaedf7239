/**
 * The chat area of the open channel or DM: header, messages, who is typing, uploads, reply bar and composer. Files
 * dropped anywhere on it upload to it (docs/product/files.md F12).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Channel } from '@ephemera/proto';
import type { RoomState } from '../state/roomState.ts';
import { currentChannel, membersOnline } from '../state/selectors.ts';
import { chatMessages, chatMessagesOf, type ChatMessage } from '../state/chatMessages.ts';
import type { RoomSession } from '../lib/session.ts';
import { canManageChannels } from '../lib/format.ts';
import { useTypingNames } from '../hooks/useTypingNames.ts';
import { MessageList } from './MessageList.tsx';
import { Composer, type ReplyTarget, type SendExtras } from './Composer.tsx';
import { ChatHeader } from './ChatHeader.tsx';
import { TypingIndicator } from './TypingIndicator.tsx';
import { typingOthersIn } from '../state/onlineSlice.ts';
import type { MessageHandlers } from './MessageItem.tsx';
import { MessageIcon } from './Icons.tsx';
import { useFileSending } from './files/useFileSending.tsx';
import { useFileDrop } from './files/useFileDrop.ts';
import { FILE_SENDING_TEXT } from '../lib/texts.ts';
import { t as translate, useCatalog, useT } from '../i18n/i18n.ts';
import './chat.css';

interface Props {
  session: RoomSession;
  state: RoomState;
  /** mobile back arrow (RoomView: clears the current channel) */
  onBack?: () => void;
  /** a message to scroll into view and highlight briefly (a search hit); onFocusDone once it was shown */
  focusMessageId?: string | null;
  onFocusDone?: () => void;
  /** shown under the header (the expiry banner) */
  banner?: ReactNode;
}

/** The DM's other member, by name and presence. */
function dmPartner(state: RoomState, channel: Channel, typingNow: boolean) {
  const selfId = state.user?.id;
  const partnerId = channel.memberIds.find((id) => id !== selfId) ?? null;
  const online = state.online.find((u) => u.id === partnerId);
  const member = state.workspace?.users.find((u) => u.id === partnerId);
  return {
    id: partnerId ?? undefined,
    name: member?.username ?? online?.username ?? channel.name,
    picture: member?.profilePicture ?? null,
    status: online ? online.presenceStatus : ('offline' as const),
    typing: typingNow,
  };
}

export function ChatArea({ session, state, onBack, focusMessageId = null, onFocusDone, banner }: Props) {
  useCatalog('room');
  const t = useT();
  const channel = currentChannel(state);
  const channelId = channel?.id ?? null;
  const [editingId, setEditingId] = useState<string | null>(null);
  const [reply, setReply] = useState<(ReplyTarget & { channelId: string }) | null>(null);
  const input = chatMessagesOf(state, channel);
  const messages = useMemo(
    () => chatMessages(input),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [input.channel, input.confirmed, input.pending, input.me, input.online, input.othersReadSeq],
  );

  // the latest state for the handlers, which stay one object for the list's lifetime
  const latest = useRef(state);
  latest.current = state;

  const typers = useTypingNames(state.typing, channelId, state.user?.id);
  const onLoadOlder = useCallback(() => {
    if (channelId) void session.loadOlder(channelId);
  }, [session, channelId]);
  const onTyping = useCallback((id: string, typing: boolean) => session.chat.typing(id, typing), [session]);
  const fetchPreview = useCallback(
    (url: string, signal: AbortSignal) => session.chat.fetchLinkPreview(url, signal),
    [session],
  );
  const onSend = useCallback((content: string, extra: SendExtras) => session.sendMessage(content, extra), [session]);
  const cancelReply = useCallback(() => setReply(null), []);
  const files = useFileSending(session, channelId, state.workspace?.settings.maxFileSize ?? 10);
  const { dragging, dropHandlers } = useFileDrop(channelId && state.user ? files.onAttachMany : null);

  const handlers = useMemo<MessageHandlers>(
    () => ({
      selfId: null,
      nameOf: (userId) => {
        const s = latest.current;
        return (
          s.online.find((u) => u.id === userId)?.username ??
          s.workspace?.users.find((u) => u.id === userId)?.username ??
          translate('room.message.someone')
        );
      },
      onRetry: (id) => session.retryMessage(id),
      onDiscard: (id) => session.discardMessage(id),
      onReply: (m: ChatMessage) => {
        if (m.id) setReply({ channelId: m.channelId, messageId: m.id, authorName: m.authorName, content: m.content });
      },
      onCopy: (m: ChatMessage) => {
        const failed = () => session.store.dispatch({ type: 'notice', message: translate('room.message.copyFailed') });
        // the Clipboard API exists only in secure contexts (https, localhost)
        if (!navigator.clipboard) failed();
        else navigator.clipboard.writeText(m.content).catch(failed);
      },
      onStartEdit: (id) => setEditingId(id),
      onCancelEdit: () => setEditingId(null),
      onSaveEdit: (m: ChatMessage, content: string) => {
        setEditingId(null);
        if (m.id) void session.chat.editMessage(m.channelId, m.id, content);
      },
      onDelete: (m: ChatMessage) => {
        if (m.id) void session.chat.deleteMessage(m.channelId, m.id);
      },
      onReact: (m: ChatMessage, emoji: string) => {
        if (m.id) void session.chat.react(m.channelId, m.id, emoji);
      },
      fileAccess: () => session.fileAccess(),
    }),
    [session],
  );
  const selfId = state.user?.id ?? null;
  const listHandlers = useMemo(() => ({ ...handlers, selfId }), [handlers, selfId]);

  // a new channel starts without an edit or a reply; a deleted message cannot be edited or quoted
  useEffect(() => {
    setEditingId(null);
  }, [channelId]);
  useEffect(() => {
    if (reply && (reply.channelId !== channelId || !messages.some((m) => m.id === reply.messageId))) setReply(null);
    if (editingId && !messages.some((m) => m.id === editingId)) setEditingId(null);
  }, [channelId, messages, reply, editingId]);

  if (!channel) {
    const hasChannels = state.channels.some((c) => c.type === 'topic');
    return (
      <section className="chat chat-empty" data-testid="chat-empty">
        {banner}
        <div className="empty-illustration">
          <MessageIcon size={36} />
        </div>
        <h2>{hasChannels ? t('room.chat.empty.pick') : t('room.chat.empty.none')}</h2>
        <p>
          {hasChannels
            ? t('room.chat.empty.choose')
            : canManageChannels(state.user)
              ? t('room.chat.empty.create')
              : t('room.chat.empty.waitForOwner')}
        </p>
      </section>
    );
  }

  const isDm = channel.type === 'dm';
  const partner = isDm ? dmPartner(state, channel, typers.length > 0) : undefined;
  const replyTarget = reply && reply.channelId === channel.id ? reply : null;

  return (
    <section className="chat" data-testid="chat-area" data-channel-id={channel.id} {...dropHandlers}>
      {dragging && (
        <div className="file-drop-zone" data-testid="file-drop-zone">
          {FILE_SENDING_TEXT.dropZone(partner ? partner.name : `#${channel.name}`)}
        </div>
      )}
      <ChatHeader
        channel={channel}
        onBack={onBack ?? (() => session.selectChannel(null))}
        online={membersOnline(state, channel)}
        partner={partner}
      />
      {banner}
      <MessageList
        key={channel.id}
        channelId={channel.id}
        messages={messages}
        intro={
          partner ? { kind: 'dm', name: partner.name, picture: partner.picture } : { kind: 'topic', name: channel.name }
        }
        hasMore={state.hasMore[channel.id] !== false}
        ready={Boolean(state.latestLoaded[channel.id])}
        loadingOlder={Boolean(state.loadingOlder[channel.id])}
        onLoadOlder={onLoadOlder}
        handlers={listHandlers}
        editingId={editingId}
        focusMessageId={focusMessageId}
        onFocusDone={onFocusDone}
      />
      <TypingIndicator names={typers} others={typingOthersIn(state, channelId, Date.now())} />
      {files.uploads}
      <Composer
        key={`composer-${channel.id}`}
        channelId={channel.id}
        placeholderName={partner ? partner.name : `#${channel.name}`}
        disabled={!state.user}
        onSend={onSend}
        replyTo={replyTarget}
        onCancelReply={cancelReply}
        onTyping={onTyping}
        fetchPreview={fetchPreview}
        onAttach={files.onAttach}
        onAttachMany={files.onAttachMany}
        onVoice={files.onVoice}
        onMicError={files.onMicError}
      />
      {files.modal}
    </section>
  );
}
