/** Which conversation the room session shows (split from session.ts): the first after joining, selecting, reading. */
import type { Message } from '@ephemera/proto';
import { getLastChannel, setLastChannel } from './storage.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';
import { tailSeq } from '../state/conversationsSlice.ts';
import type { HistoryLoader } from './historyLoader.ts';

const MOBILE_QUERY = '(max-width: 767px)';

/** What the channel view needs of its session (lib/session.ts). */
export interface ChannelViewLink {
  readonly workspaceId: string;
  state(): RoomState;
  dispatch(action: RoomAction): void;
  /** join-workspace succeeded on the current connection */
  joined(): boolean;
  markRead(channelId: string): void;
}

export class ChannelView {
  constructor(
    private readonly link: ChannelViewLink,
    private readonly history: HistoryLoader,
  ) {}

  /** Joined (or joined again): open a channel the first time, else catch up on what was missed. */
  afterJoin(isRejoin: boolean): void {
    if (!isRejoin) {
      this.openInitial();
    } else {
      // summaries after the resync: the server's counts then replace what the resynced messages added
      void this.history.syncFrom(this.link.state().lastSeq).finally(() => void this.history.loadSummaries());
      const current = this.link.state().currentChannelId;
      if (current) void this.history.loadLatest(current);
    }
    // unread counts, last-message previews and read positions of every conversation, from the server
    if (!isRejoin) void this.history.loadSummaries();
  }

  liveMessage(m: Message): void {
    if (!m || typeof m.id !== 'string') return;
    const before = this.link.state().lastSeq;
    this.link.dispatch({ type: 'messagesMerged', messages: [m], source: 'live' });
    // per-room seq is gap-free: a jump means we missed something
    if (before > 0 && m.seq > before + 1) void this.history.syncFrom(before);
  }

  private openInitial(): void {
    const state = this.link.state();
    if (state.currentChannelId) return;
    const topics = state.channels
      .filter((c) => c.type === 'topic')
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    // the last channel of this room (a topic channel or a DM), else the first topic channel
    const remembered = state.channels.find((c) => c.id === getLastChannel(this.link.workspaceId));
    const isMobile =
      typeof window !== 'undefined' &&
      typeof window.matchMedia === 'function' &&
      window.matchMedia(MOBILE_QUERY).matches;
    const target = remembered ?? (isMobile ? undefined : topics[0]);
    if (target) this.select(target.id);
  }

  /** Viewing a channel reads it: the open channel holds a message above our read position. */
  readOpen(): void {
    const state = this.link.state();
    const channelId = state.currentChannelId;
    if (!channelId || !this.link.joined()) return;
    if (tailSeq(state, channelId) > (state.readSeq[channelId] ?? 0)) this.link.markRead(channelId);
  }

  /** A channel left our view: the store applies the selection rule; a newly selected channel is remembered and loaded. */
  remove(channelId: string): void {
    const before = this.link.state().currentChannelId;
    this.link.dispatch({ type: 'channelRemoved', channelId });
    const after = this.link.state().currentChannelId;
    if (after === before) return;
    setLastChannel(this.link.workspaceId, after);
    if (after) void this.history.loadLatest(after);
  }

  /** Open a channel (null: back to the list on mobile). */
  select(channelId: string | null): void {
    this.link.dispatch({ type: 'channelSelected', channelId });
    if (!channelId) return;
    setLastChannel(this.link.workspaceId, channelId);
    void this.history.loadLatest(channelId);
  }
}
