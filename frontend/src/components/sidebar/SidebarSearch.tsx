/**
 * The sidebar search (docs/product/messages.md M14): placeholder "Search chats, users..." with a "/" hint; results in
 * Chats & Channels, Users (local) and Messages (the server's search-messages: newest first, at most 10, snippets
 * cut at 60); No results found; Escape clears. The input id is SIDEBAR_SEARCH_ID: the "/" shortcut focuses it.
 */
import { useEffect, useState } from 'react';
import type { Message } from '@ephemera/proto';
import { SIDEBAR_SEARCH_ID, useEscapeShortcut } from '../../hooks/useShortcuts.ts';
import type { RoomState } from '../../state/roomState.ts';
import { messageHits, searchLocal } from '../../state/conversationSelectors.ts';
import { formatTime } from '../../lib/format.ts';
import { HashIcon, LockIcon } from '../Icons.tsx';
import { CloseIcon } from '../Icons.tsx';
import { SearchIcon } from './icons.tsx';
import { PersonAvatar } from './PersonAvatar.tsx';
import { useT } from '../../i18n/i18n.ts';

const SEARCH_DEBOUNCE_MS = 300;

type Remote = { query: string; status: 'loading' | 'done' | 'failed'; messages: Message[] };

interface Props {
  state: RoomState;
  query: string;
  onQuery(query: string): void;
  search(query: string): Promise<{ ok: true; messages: Message[] } | { ok: false; message: string }>;
  onOpenChannel(channelId: string): void;
  onOpenUser(userId: string): void;
  /** a message hit: its conversation opens scrolled to the message, which is highlighted briefly */
  onOpenMessage(channelId: string, messageId: string): void;
}

export function SidebarSearchInput({ query, onQuery }: Pick<Props, 'query' | 'onQuery'>) {
  const t = useT();
  useEscapeShortcut(() => onQuery(''));
  return (
    <div className="sidebar-search">
      <SearchIcon size={16} />
      <input
        id={SIDEBAR_SEARCH_ID}
        type="search"
        value={query}
        placeholder={t('roomside.search.placeholder')}
        autoComplete="off"
        spellCheck={false}
        aria-label={t('roomside.search.label')}
        data-testid="sidebar-search"
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            onQuery('');
          }
        }}
      />
      {query ? (
        <button
          type="button"
          className="search-clear"
          onClick={() => onQuery('')}
          aria-label={t('roomside.search.clear')}
        >
          <CloseIcon size={14} />
        </button>
      ) : (
        <kbd className="search-hint" aria-hidden="true">
          /
        </kbd>
      )}
    </div>
  );
}

export function SidebarSearchResults({
  state,
  query,
  search,
  onOpenChannel,
  onOpenUser,
  onOpenMessage,
}: Omit<Props, 'onQuery'>) {
  const t = useT();
  const [remote, setRemote] = useState<Remote | null>(null);
  const q = query.trim();

  useEffect(() => {
    if (!q) {
      setRemote(null);
      return;
    }
    let cancelled = false;
    setRemote((r) => ({ query: q, status: 'loading', messages: r?.messages ?? [] }));
    const timer = setTimeout(() => {
      void search(q).then((result) => {
        if (cancelled) return;
        setRemote(
          result.ok
            ? { query: q, status: 'done', messages: result.messages }
            : { query: q, status: 'failed', messages: [] },
        );
      });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [q, search]);

  const local = searchLocal(state, q);
  const hits = remote && remote.query === q ? messageHits(state, remote.messages) : [];
  const loading = !remote || remote.query !== q || remote.status === 'loading';
  const empty = local.conversations.length === 0 && local.users.length === 0 && hits.length === 0;

  return (
    <div className="search-results" data-testid="search-results" aria-live="polite">
      {local.conversations.length > 0 && (
        <Group title={t('roomside.search.chats')} testId="search-group-chats">
          {local.conversations.map((c) => (
            <li key={c.channel.id}>
              <button
                type="button"
                className="channel-row"
                onClick={() => onOpenChannel(c.channel.id)}
                data-testid="search-chat"
                data-channel-id={c.channel.id}
              >
                {c.kind === 'dm' ? (
                  <PersonAvatar
                    name={c.title}
                    picture={c.partner?.profilePicture}
                    status={c.partner?.status ?? 'offline'}
                    size={28}
                  />
                ) : (
                  <span className="channel-icon">
                    {c.channel.isPrivate ? <LockIcon size={14} /> : <HashIcon size={14} />}
                  </span>
                )}
                <span className="channel-name">{c.title}</span>
              </button>
            </li>
          ))}
        </Group>
      )}
      {local.users.length > 0 && (
        <Group title={t('roomside.search.users')} testId="search-group-users">
          {local.users.map((u) => (
            <li key={u.id}>
              <button
                type="button"
                className="channel-row"
                onClick={() => onOpenUser(u.id)}
                data-testid="search-user"
                data-username={u.username}
              >
                <PersonAvatar name={u.username} picture={u.profilePicture} status={u.status} size={28} />
                <span className="channel-name">{u.username}</span>
              </button>
            </li>
          ))}
        </Group>
      )}
      {hits.length > 0 && (
        <Group title={t('roomside.search.messages')} testId="search-group-messages">
          {hits.map((h) => (
            <li key={h.message.id}>
              <button
                type="button"
                className="channel-row search-message"
                onClick={() => onOpenMessage(h.message.channelId, h.message.id)}
                data-testid="search-message"
                data-channel-id={h.message.channelId}
                data-message-id={h.message.id}
              >
                <span className="channel-main">
                  <span className="channel-line">
                    <span className="channel-name">
                      {h.message.authorName} <small className="search-where">{h.where}</small>
                    </span>
                    <time className="channel-time" dateTime={h.message.timestamp}>
                      {formatTime(h.message.timestamp)}
                    </time>
                  </span>
                  <span className="channel-preview" data-testid="search-snippet">
                    {h.snippet}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </Group>
      )}
      {empty && !loading && (
        <p className="search-empty" data-testid="search-empty">
          {t('roomside.search.none')}
        </p>
      )}
      {empty && loading && <p className="search-empty muted-dark">{t('roomside.search.searching')}</p>}
    </div>
  );
}

function Group({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) {
  return (
    <section className="search-group" data-testid={testId}>
      <h3 className="sidebar-subhead">{title}</h3>
      <ul className="channel-list">{children}</ul>
    </section>
  );
}
