/**
 * What a conversation row can do, handed down by the sidebar through ChannelList.tsx to ChannelRow.tsx and DmRow.tsx;
 * a file of its own so the rows do not import the list that renders them.
 */
import type { PersonView } from '../../state/conversationSelectors.ts';
import type { MenuEntry } from '../ui/Menu.tsx';

export interface ConversationActions {
  select(channelId: string): void;
  markRead(channelId: string): void;
  askDeleteDm(channelId: string): void;
  rename(channelId: string, name: string): Promise<{ ok: true } | { ok: false; message: string }>;
  askDeleteChannel(channelId: string): void;
  editMembers(channelId: string): void;
  /** administration entries for a person's row (Make admin / Remove admin, Kick User); none for a plain member */
  memberActions?(person: PersonView): MenuEntry[];
}
