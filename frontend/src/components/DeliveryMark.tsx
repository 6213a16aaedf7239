/** The mark on an own message: sending (clock), sent (one tick), delivered (two ticks), read (two blue ticks). */
import type { ChatMessage } from '../state/chatMessages.ts';
import { AlertIcon, CheckIcon, ClockIcon } from './Icons.tsx';
import { DoubleCheckIcon } from './ChatIcons.tsx';

const LABELS = { sending: 'Sending', sent: 'Sent', delivered: 'Delivered', read: 'Read', failed: 'Not sent' } as const;

export function DeliveryMark({ status }: { status: ChatMessage['status'] }) {
  if (!status) return null;
  const icon =
    status === 'sending' ? (
      <ClockIcon size={12} />
    ) : status === 'sent' ? (
      <CheckIcon size={12} />
    ) : status === 'failed' ? (
      <AlertIcon size={12} />
    ) : (
      <DoubleCheckIcon size={14} />
    );
  return (
    <span
      className={`message-status delivery-${status}`}
      title={LABELS[status]}
      aria-label={LABELS[status]}
      role="img"
      data-testid="delivery-mark"
      data-status={status}
    >
      {icon}
    </span>
  );
}
