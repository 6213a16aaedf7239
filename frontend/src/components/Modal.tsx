/**
 * The app's modal dialog, on Radix Dialog: focus trapped inside, Escape and a click outside close it (when it can
 * be closed), focus returns to where it was when the modal goes away, the page behind is inert to assistive
 * technology, the title labels the dialog (aria-labelledby).
 *
 * Render it while it should be open and unmount it to close it (it is always `open`):
 *   {open && <Modal title="Create Channel" onClose={() => setOpen(false)}>...</Modal>}
 */
import { Suspense, useRef, useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from './Icons.tsx';
import { useCatalog, useT } from '../i18n/i18n.ts';

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

/** First field or action inside the dialog, else the dialog itself (the close button is not a good first stop). */
const FIRST_FOCUS =
  'input:not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([data-modal-close]):not([disabled]), [href]';

export function Modal({ title, children, onClose, footer, tone = 'default', icon, testId, size = 'sm' }: ModalProps) {
  const contentRef = useRef<HTMLDivElement>(null);
  // there is no Dialog.Trigger (callers mount the modal to open it): focus goes back to what had it before
  const [returnFocus] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  );
  // status dialogs (success, danger, warning) are announced with their text; forms are not read out whole
  const describe = tone !== 'default';
  const block = (e: Event) => {
    if (!onClose) e.preventDefault();
  };

  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose?.();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="modal-backdrop">
          <Dialog.Content
            ref={contentRef}
            className={`modal modal-${size} tone-${tone}`}
            aria-modal="true"
            data-testid={testId}
            {...(describe ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={(e) => {
              e.preventDefault();
              const el = contentRef.current;
              (el?.querySelector<HTMLElement>(FIRST_FOCUS) ?? el)?.focus();
            }}
            onCloseAutoFocus={(e) => {
              e.preventDefault();
              if (returnFocus?.isConnected) returnFocus.focus();
            }}
            onEscapeKeyDown={block}
            onPointerDownOutside={block}
            onInteractOutside={block}
          >
            {onClose && (
              // its label comes with the roomside catalog; only this button waits for it (the dashboard and the
              // superadmin pages open dialogs too, without that catalog)
              <Suspense fallback={null}>
                <CloseButton />
              </Suspense>
            )}
            {icon && (
              <div className={`modal-icon tone-${tone}`} aria-hidden="true">
                {icon}
              </div>
            )}
            <Dialog.Title className="modal-title">{title}</Dialog.Title>
            {describe ? (
              <Dialog.Description asChild>
                <div className="modal-body">{children}</div>
              </Dialog.Description>
            ) : (
              <div className="modal-body">{children}</div>
            )}
            {footer && <div className="modal-footer">{footer}</div>}
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function CloseButton() {
  useCatalog('roomside');
  const t = useT();
  return (
    <Dialog.Close className="icon-button modal-close" aria-label={t('roomside.action.close')} data-modal-close>
      <CloseIcon size={18} />
    </Dialog.Close>
  );
}
