import type { ReactNode } from 'react';
import { Modal } from './Modal.tsx';
import { AlertIcon, LogoMark } from './Icons.tsx';
import { useT } from '../i18n/i18n.ts';

/** the server's own text for a refused join: shown as the title, not repeated under it */
const JOIN_FAILED = 'Failed to join workspace';

export function CenteredScreen({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="overlay-screen">
      <div className="overlay-card center" data-testid={testId}>
        <div className="overlay-brand">
          <LogoMark size={40} />
        </div>
        {children}
      </div>
    </div>
  );
}

export function LoadingScreen({ text, error, onRetry }: { text: string; error?: string | null; onRetry?: () => void }) {
  const t = useT();
  return (
    <CenteredScreen testId="loading-screen">
      <div className="spinner" aria-hidden="true" />
      <p className="overlay-sub" role="status">
        {text}
      </p>
      {error && (
        <>
          <div className="form-error" role="alert" data-testid="connection-error">
            <AlertIcon size={16} /> <span>{error}</span>
          </div>
          {onRetry && (
            <button type="button" className="button button-soft" onClick={onRetry} data-testid="retry-button">
              {t('common.status.tryAgain')}
            </button>
          )}
        </>
      )}
    </CenteredScreen>
  );
}

export function LoadErrorView({ message, onRetry }: { message: string; onRetry(): void }) {
  const t = useT();
  return (
    <CenteredScreen testId="load-error">
      <div className="status-icon tone-danger">
        <AlertIcon size={26} />
      </div>
      <h1 className="overlay-title">{t('common.status.somethingWrong')}</h1>
      <p className="overlay-sub" role="alert" data-testid="load-error-message">
        {message}
      </p>
      <div className="button-row">
        <button type="button" className="button button-primary" onClick={onRetry}>
          {t('common.status.tryAgain')}
        </button>
        <a className="button button-ghost" href="/">
          {t('common.status.backHome')}
        </a>
      </div>
    </CenteredScreen>
  );
}

/** Join refused for a stored record: storage is cleared and we go home after 3 s. */
export function JoinFailedView({ message }: { message: string }) {
  const t = useT();
  const title = t('common.status.joinFailed');
  return (
    <CenteredScreen testId="join-error-view">
      <div className="status-icon tone-danger">
        <AlertIcon size={26} />
      </div>
      <h1 className="overlay-title">{title}</h1>
      {message && message !== JOIN_FAILED && message !== title && (
        <p className="overlay-sub" role="alert">
          {message}
        </p>
      )}
      <p className="muted">{t('common.status.redirectingHome')}</p>
    </CenteredScreen>
  );
}

/** A room lookup that failed (docs/product/rooms.md R5): Go Home, Back to Dashboard, Create This Room. */
export function RoomNotFoundModal({
  message,
  onCreate,
  redirecting,
}: {
  message: string;
  onCreate(): void;
  redirecting: boolean;
}) {
  const t = useT();
  return (
    <Modal
      title={t('common.status.roomNotFound')}
      tone="warning"
      icon={<AlertIcon size={24} />}
      testId="room-not-found-modal"
      footer={
        <>
          <a className="button button-ghost" href="/" data-testid="room-not-found-home">
            {t('common.status.goHome')}
          </a>
          <a className="button button-ghost" href="/dashboard">
            {t('common.status.backToDashboard')}
          </a>
          <button type="button" className="button button-primary" onClick={onCreate}>
            {t('common.status.createThisRoom')}
          </button>
        </>
      }
    >
      <p>{message}</p>
      {redirecting && <p className="muted">{t('common.status.redirectingHome')}</p>}
    </Modal>
  );
}
