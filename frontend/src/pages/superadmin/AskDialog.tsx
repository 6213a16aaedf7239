/**
 * The dashboard's confirmations and prompts (docs/product/admin.md: "This will clean up expired
 * data. Continue?", a required reason, the extend choice, the maintenance message) as the app's own dialog instead of
 * window.confirm / window.prompt: accessible (Modal.tsx: focus in and back, Escape cancels) and it does not block the
 * page. `ask.confirm(text)` resolves true or false; `ask.prompt(text, initial)` resolves the text, or null if cancelled.
 */
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { useT } from '../../i18n/i18n.ts';

type Pending =
  | { kind: 'confirm'; text: string; resolve(ok: boolean): void }
  | { kind: 'prompt'; text: string; initial: string; resolve(value: string | null): void };

export interface Ask {
  confirm(text: string): Promise<boolean>;
  prompt(text: string, initial?: string): Promise<string | null>;
}

export function useAsk(): [Ask, ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  const confirm = useCallback(
    (text: string) => new Promise<boolean>((resolve) => setPending({ kind: 'confirm', text, resolve })),
    [],
  );
  const prompt = useCallback(
    (text: string, initial = '') =>
      new Promise<string | null>((resolve) => setPending({ kind: 'prompt', text, initial, resolve })),
    [],
  );
  const element = pending && <AskDialog key={pending.text} pending={pending} done={() => setPending(null)} />;
  return [{ confirm, prompt }, element];
}

function AskDialog({ pending, done }: { pending: Pending; done(): void }) {
  const t = useT();
  const [value, setValue] = useState(pending.kind === 'prompt' ? pending.initial : '');
  const cancel = () => {
    if (pending.kind === 'confirm') pending.resolve(false);
    else pending.resolve(null);
    done();
  };
  const accept = (e?: FormEvent) => {
    e?.preventDefault();
    if (pending.kind === 'confirm') pending.resolve(true);
    else pending.resolve(value);
    done();
  };
  const title = pending.kind === 'confirm' ? t('admin.ask.confirm') : t('admin.ask.answer');
  return (
    <Modal
      title={title}
      onClose={cancel}
      testId={`ask-${pending.kind}`}
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={cancel} data-testid="ask-cancel">
            {t('admin.ask.cancel')}
          </button>
          <button type="submit" form="ask-form" className="button button-primary" data-testid="ask-ok">
            {t('admin.ask.ok')}
          </button>
        </>
      }
    >
      <form id="ask-form" className="modal-form" onSubmit={accept} noValidate>
        {pending.kind === 'prompt' ? (
          <label className="sa-ask-label">
            <span data-testid="ask-text">{pending.text}</span>
            <input
              className="sa-input"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              data-testid="ask-input"
            />
          </label>
        ) : (
          <p data-testid="ask-text">{pending.text}</p>
        )}
      </form>
    </Modal>
  );
}
