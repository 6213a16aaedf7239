/**
 * What the room administration dialogs' forms share: a submit's busy and error state, the error line (in the active
 * language) and the Cancel row beside the dialog's own button.
 */
import { useState, type ReactNode } from 'react';
import { AlertIcon } from '../Icons.tsx';
import type { Result } from '../../lib/commandResult.ts';
import { useT } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

/** A submit's life: busy while the server answers, closed on success, the reason shown on failure. */
export function useSubmit(onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<Result>) => {
    setBusy(true);
    setError(null);
    const r = await action();
    if (r.ok) {
      onClose();
      return;
    }
    setBusy(false);
    setError(r.message);
  };
  return { busy, error, setError, run };
}

// a refusal or a rule's text (English from the server or lib/roomRules.ts) shows in the active language
export const ErrorLine = ({ error, testId }: { error: string | null; testId: string }) =>
  error ? (
    <div className="form-error" role="alert" data-testid={testId}>
      <AlertIcon size={16} /> <span>{errorText(null, error)}</span>
    </div>
  ) : null;

export function Actions({ onClose, busy, children }: { onClose(): void; busy: boolean; children: ReactNode }) {
  const t = useT();
  return (
    <div className="modal-actions">
      <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
        {t('roomside.action.cancel')}
      </button>
      {children}
    </div>
  );
}
