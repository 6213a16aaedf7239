/** The mark on an own message: sending (clock), sent (one tick), delivered (two ticks), read (two blue ticks). */
import type { ChatMessage } from '../state/chatMessages.ts';
import { AlertIcon, CheckIcon, ClockIcon } from './Icons.tsx';
import { DoubleCheckIcon } from './ChatIcons.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';

const LABELS: Record<NonNullable<ChatMessage['status']>, MessageId> = {
  sending: 'room.delivery.sending',
  sent: 'room.delivery.sent',
  delivered: 'room.delivery.delivered',
  read: 'room.delivery.read',
  failed: 'room.delivery.failed',
};

export function DeliveryMark({ status }: { status: ChatMessage['status'] }) {
  const t = useT();
  if (!status) return null;
  const label = t(LABELS[status]);
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
      title={label}
      aria-label={label}
      role="img"
      data-testid="delivery-mark"
      data-status={status}
    >
      {icon}
    </span>
  );
}
