/** The sidebar's confirmations: Delete Conversation (own view only), Delete channel (everyone) and DM confirm (Start a direct message). */
import { useState } from 'react';
import { Modal } from '../Modal.tsx';
import { AlertIcon } from '../Icons.tsx';
import { TrashIcon } from './icons.tsx';

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
    setError(result.message || fallback);
  };
  return { busy, error, confirm };
}

export function DeleteConversationModal({ name, onClose, onConfirm }: ConfirmProps) {
  return (
    <Modal
      title="Delete Conversation"
      onClose={onClose}
      tone="danger"
      icon={<TrashIcon size={22} />}
      testId="delete-conversation-modal"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
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
            Delete
          </button>
        </>
      }
    >
      <p>
        Delete your conversation with <strong>{name}</strong>?
      </p>
      <p>
        It is removed from your view only; {name} keeps it. A new message from {name} brings it back.
      </p>
    </Modal>
  );
}

export function DeleteChannelModal({ name, onClose, onConfirm }: ConfirmProps) {
  const { busy, error, confirm } = useConfirm(onConfirm, onClose, 'Failed to delete channel');
  return (
    <Modal
      title="Delete channel"
      onClose={busy ? undefined : onClose}
      tone="danger"
      icon={<TrashIcon size={22} />}
      testId="delete-channel-modal"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => void confirm()}
            disabled={busy}
            data-testid="delete-channel-confirm"
          >
            {busy ? 'Deleting...' : 'Delete channel'}
          </button>
        </>
      }
    >
      <p>
        Delete <strong>#{name}</strong> for everyone? All of its messages are lost.
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
  const { busy, error, confirm } = useConfirm(onConfirm, onClose, 'Failed to start conversation');
  return (
    <Modal
      title={`Start a direct message with ${username}?`}
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
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void confirm()}
            disabled={busy}
            data-testid="start-dm-confirm"
          >
            {busy ? 'Starting...' : 'Start'}
          </button>
        </>
      }
    >
      <p>
        Only you and <strong>{username}</strong> can see the messages of a direct conversation.
      </p>
      {error && (
        <div className="form-error" role="alert" data-testid="start-dm-error">
          <AlertIcon size={16} /> <span>{error}</span>
        </div>
      )}
    </Modal>
  );
}
