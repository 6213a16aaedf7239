/** The sidebar's confirmations: Delete Conversation (own view only), Delete channel (everyone) and DM confirm (Start a direct message). */
import { useState } from 'react';
import { Modal } from '../Modal.tsx';
import { AlertIcon } from '../Icons.tsx';
import { TrashIcon } from './icons.tsx';
import { useT } from '../../i18n/i18n.ts';
import { Trans } from '../../i18n/Trans.tsx';
import { errorText } from '../../i18n/errorText.ts';

interface ConfirmProps {
  name: string;
  onClose(): void;
  onConfirm(): Promise<ConfirmResult>;
}

type ConfirmResult = { ok: true } | { ok: false; message: string };

/** A confirm button's life: busy while the server answers, closed on success, the reason shown on failure. */
function useConfirm(onConfirm: () => Promise<ConfirmResult>, onClose: () => void, fallback: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    const result = await onConfirm();
    if (result.ok) {
      onClose();
      return;
    }
    setBusy(false);
    setError(result.message ? errorText(null, result.message) : fallback);
  };
  return { busy, error, confirm };
}

export function DeleteConversationModal({ name, onClose, onConfirm }: ConfirmProps) {
  const t = useT();
  return (
    <Modal
      title={t('roomside.deleteDm.title')}
      onClose={onClose}
      tone="danger"
      icon={<TrashIcon size={22} />}
      testId="delete-conversation-modal"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>
            {t('roomside.action.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            data-testid="delete-conversation-confirm"
            onClick={() => {
              onClose();
              void onConfirm();
            }}
          >
            {t('roomside.action.delete')}
          </button>
        </>
      }
    >
      <p>
        <Trans id="roomside.deleteDm.question" values={{ name }} components={{ 0: <strong /> }} />
      </p>
      <p>{t('roomside.deleteDm.note', { name })}</p>
    </Modal>
  );
}

export function DeleteChannelModal({ name, onClose, onConfirm }: ConfirmProps) {
  const t = useT();
  const { busy, error, confirm } = useConfirm(onConfirm, onClose, t('roomside.command.deleteChannelFailed'));
  return (
    <Modal
      title={t('roomside.channel.delete')}
      onClose={busy ? undefined : onClose}
      tone="danger"
      icon={<TrashIcon size={22} />}
      testId="delete-channel-modal"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
            {t('roomside.action.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => void confirm()}
            disabled={busy}
            data-testid="delete-channel-confirm"
          >
            {busy ? t('roomside.action.deleting') : t('roomside.channel.delete')}
          </button>
        </>
      }
    >
      <p>
        <Trans id="roomside.deleteChannel.question" values={{ name }} components={{ 0: <strong /> }} />
      </p>
      {error && (
        <div className="form-error" role="alert" data-testid="delete-channel-error">
          <AlertIcon size={16} /> <span>{error}</span>
        </div>
      )}
    </Modal>
  );
}

interface StartDmProps {
  username: string;
  onClose(): void;
  onConfirm(): Promise<ConfirmResult>;
}

/** DM confirm (docs/product/rooms.md R30): a new DM is created only after Start; an existing one opens directly. */
export function StartDmModal({ username, onClose, onConfirm }: StartDmProps) {
  const t = useT();
  const { busy, error, confirm } = useConfirm(onConfirm, onClose, t('roomside.command.startDmFailed'));
  return (
    <Modal
      title={t('roomside.startDm.title', { name: username })}
      onClose={busy ? undefined : onClose}
      testId="start-dm-modal"
      footer={
        <>
          <button
            type="button"
            className="button button-ghost"
            onClick={onClose}
            disabled={busy}
            data-testid="start-dm-cancel"
          >
            {t('roomside.action.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void confirm()}
            disabled={busy}
            data-testid="start-dm-confirm"
          >
            {busy ? t('roomside.startDm.starting') : t('roomside.startDm.start')}
          </button>
        </>
      }
    >
      <p>
        <Trans id="roomside.startDm.note" values={{ name: username }} components={{ 0: <strong /> }} />
      </p>
      {error && (
        <div className="form-error" role="alert" data-testid="start-dm-error">
          <AlertIcon size={16} /> <span>{error}</span>
        </div>
      )}
    </Modal>
  );
}
