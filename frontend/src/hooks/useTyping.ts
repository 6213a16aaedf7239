/** The composer's typing signals for one channel (rules in lib/typingSender.ts); stops when the channel changes. */
import { useEffect, useMemo } from 'react';
import { TypingSender } from '../lib/typingSender.ts';

export function useTyping(channelId: string, send: (channelId: string, typing: boolean) => void): TypingSender {
  const sender = useMemo(() => new TypingSender((typing) => send(channelId, typing)), [channelId, send]);
  useEffect(() => () => sender.stop(), [sender]);
  return sender;
}
