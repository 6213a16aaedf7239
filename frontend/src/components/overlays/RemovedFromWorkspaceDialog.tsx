/**
 * The removed-from-workspace dialog (docs/product/admin.md ADM13): the reason, a note that the
 * user can rejoin with the invitation link unless permanently banned, and the way home: by itself after 5 s, or at
 * once with Go to Home Page. It cannot be dismissed otherwise (the user is no longer in the room behind it).
 * The room page passes the rooms spec's own words for its kicked modal (Removed from Chat Room, 3 s, Go to Homepage).
 */
import { useEffect, useRef } from 'react';
import { Modal } from '../Modal.tsx';
import { AlertIcon } from '../Icons.tsx';
import { useCatalog, useT } from '../../i18n/i18n.ts';

export const REMOVED_REDIRECT_MS = 5000;
const goHome = () => window.location.assign('/');

export function RemovedFromWorkspaceDialog({
  reason,
  title,
  homeLabel,
  redirectMs = REMOVED_REDIRECT_MS,
  onHome = goHome,
  testId = 'removed-dialog',
}: {
  reason: string;
  title?: string;
  homeLabel?: string;
  redirectMs?: number;
  onHome?(): void;
  testId?: string;
}) {
  useCatalog('roomside'); // shown on any page (RemovedHost): its texts load with it
  const t = useT();
  // the caller's latest onHome, without restarting the countdown on each render
  const home = useRef(onHome);
  home.current = onHome;
  useEffect(() => {
    const t = setTimeout(() => home.current(), redirectMs);
    return () => clearTimeout(t);
  }, [redirectMs]);
  return (
    <Modal
      title={title ?? t('roomside.removed.title')}
      tone="danger"
      icon={<AlertIcon size={24} />}
      testId={testId}
      footer={
        <button type="button" className="button button-primary" onClick={onHome} data-testid="removed-go-home">
          {homeLabel ?? t('roomside.removed.goHome')}
        </button>
      }
    >
      <p>{reason}</p>
      <p className="muted">{t('roomside.removed.rejoin')}</p>
      <p className="muted">{t('roomside.ended.redirecting')}</p>
    </Modal>
  );
}
