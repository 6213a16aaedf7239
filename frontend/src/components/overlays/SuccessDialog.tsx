/**
 * The app's success dialog (docs/product/admin.md ADM13): a title, a message, closes by itself
 * after about 3 s, and offers Go to Home. Focus moves into it and back when it goes (Modal.tsx, Radix Dialog).
 * The caller decides what closing means (the room page: back home once the room is gone).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Modal } from '../Modal.tsx';
import { AlertIcon, CheckIcon } from '../Icons.tsx';
import { useT } from '../../i18n/i18n.ts';

export const SUCCESS_AUTO_CLOSE_MS = 3000;

export function SuccessDialog({
  title,
  message,
  note,
  onClose,
  onHome = () => window.location.assign('/'),
  autoCloseMs = SUCCESS_AUTO_CLOSE_MS,
  testId = 'success-dialog',
  tone = 'success',
}: {
  title: string;
  message: ReactNode;
  /** a second, quieter line (e.g. Redirecting to home page...) */
  note?: ReactNode;
  onClose(): void;
  /** the Go to Home action (default: the home page) */
  onHome?(): void;
  autoCloseMs?: number;
  testId?: string;
  /** warning: the same dialog for news that is not the reader's success (a room deleted by its owner): no tick */
  tone?: 'success' | 'warning';
}) {
  const t = useT();
  // the caller's latest onClose, without restarting the countdown on each render
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const t = setTimeout(() => close.current(), autoCloseMs);
    return () => clearTimeout(t);
  }, [autoCloseMs]);
  return (
    <Modal
      title={title}
      tone={tone}
      icon={tone === 'success' ? <CheckIcon size={24} /> : <AlertIcon size={24} />}
      testId={testId}
      onClose={onClose}
      footer={
        <button type="button" className="button button-primary" onClick={onHome} data-testid="success-go-home">
          {t('roomside.success.goHome')}
        </button>
      }
    >
      <p>{message}</p>
      {note && <p className="muted">{note}</p>}
    </Modal>
  );
}
