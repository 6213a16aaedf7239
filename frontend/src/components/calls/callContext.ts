/**
 * What the chat header needs to offer calls: RoomView provides it (useCalls.ts), ChatHeader's call buttons read it.
 * Null outside a room (the buttons are not drawn).
 */
import { createContext, useContext } from 'react';
import type { CallType } from '@ephemera/proto';

export interface CallActions {
  /** the room's tier allows this call type (the server decides again on start-call) */
  allowed(callType: CallType): boolean;
  /** start a call, or open the upgrade dialog when the tier does not allow it */
  call(input: { channelId: string; peerId: string; peerName: string; callType: CallType }): void;
  /** a call is under way in this tab: the buttons are disabled */
  busy: boolean;
}

export const CallContext = createContext<CallActions | null>(null);
export const useCallActions = () => useContext(CallContext);
