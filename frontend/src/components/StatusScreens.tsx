import type { ReactNode } from 'react';
import { Modal } from './Modal.tsx';
import { AlertIcon, LogoMark } from './Icons.tsx';

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
              Try again
            </button>
          )}
        </>
      )}
    </CenteredScreen>
  );
}

export function LoadErrorView({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <CenteredScreen testId="load-error">
      <div className="status-icon tone-danger">
        <AlertIcon size={26} />
      </div>
      <h1 className="overlay-title">Something went wrong</h1>
      <p className="overlay-sub" role="alert" data-testid="load-error-message">
        {message}
      </p>
      <div className="button-row">
        <button type="button" className="button button-primary" onClick={onRetry}>
          Try again
        </button>
        <a className="button button-ghost" href="/">
          Back to home
        </a>
      </div>
    </CenteredScreen>
  );
}

/** Join refused for a stored record: storage is cleared and we go home after 3 s. */
export function JoinFailedView({ message }: { message: string }) {
  return (
    <CenteredScreen testId="join-error-view">
      <div className="status-icon tone-danger">
        <AlertIcon size={26} />
      </div>
      <h1 className="overlay-title">Failed to join workspace</h1>
      {message && message !== 'Failed to join workspace' && (
        <p className="overlay-sub" role="alert">
          {message}
        </p>
      )}
      <p className="muted">Redirecting to home page...</p>
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
  return (
    <Modal
      title="Room Not Found"
      tone="warning"
      icon={<AlertIcon size={24} />}
      testId="room-not-found-modal"
      footer={
        <>
          <a className="button button-ghost" href="/" data-testid="room-not-found-home">
            Go Home
          </a>
          <a className="button button-ghost" href="/dashboard">
            Back to Dashboard
          </a>
          <button type="button" className="button button-primary" onClick={onCreate}>
            Create This Room
          </button>
        </>
      }
    >
      <p>{message}</p>
      {redirecting && <p className="muted">Redirecting to home page...</p>}
    </Modal>
  );
}
