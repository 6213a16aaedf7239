import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './Icons.tsx';

interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  /** omitted: the modal cannot be dismissed (no close button, Escape and backdrop do nothing) */
  onClose?: () => void;
  footer?: ReactNode;
  tone?: 'default' | 'success' | 'danger' | 'warning';
  icon?: ReactNode;
  testId?: string;
  size?: 'sm' | 'md';
}

export function Modal({ title, children, onClose, footer, tone = 'default', icon, testId, size = 'sm' }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const dialog = dialogRef.current;
    const focusable = dialog?.querySelector<HTMLElement>('input, textarea, button:not([data-modal-close]), [href]');
    (focusable ?? dialog)?.focus();
    return () => previous?.focus?.();
  }, []);

  useEffect(() => {
    if (!onClose) return;
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="modal-backdrop" onMouseDown={(e) => { if (e.target === e.currentTarget) onClose?.(); }}>
      <div ref={dialogRef} className={`modal modal-${size} tone-${tone}`} role="dialog" aria-modal="true"
        aria-labelledby={titleId} tabIndex={-1} data-testid={testId}>
        {onClose && (
          <button type="button" className="icon-button modal-close" onClick={onClose} aria-label="Close" data-modal-close>
            <CloseIcon size={18} />
          </button>
        )}
        {icon && <div className={`modal-icon tone-${tone}`}>{icon}</div>}
        <h2 id={titleId} className="modal-title">{title}</h2>
        <div className="modal-body">{children}</div>
        {footer && <div className="modal-footer">{footer}</div>}
      </div>
    </div>
  );
}
