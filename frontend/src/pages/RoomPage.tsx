import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { JoinOverlay } from '../components/JoinOverlay.tsx';
import { JoinFailedView, LoadErrorView, LoadingScreen, RoomNotFoundModal } from '../components/StatusScreens.tsx';
import { stripQueryParams } from '../lib/navigation.ts';
import { useCatalog, useT } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';
import { consumeTokenParams, resolveRoom } from './resolveRoom.ts';
import type { Phase, RoomTarget } from './roomPhase.ts';
import { loadRoomSession } from './roomSessionLoader.ts';

export const REDIRECT_HOME_MS = 3000;
// shown once at the end of a session (the room deleted, a kick), like the app-wide Removed dialog: loaded then
const SuccessDialog = lazy(() =>
  import('../components/overlays/SuccessDialog.tsx').then((m) => ({ default: m.SuccessDialog })),
);
const RemovedFromWorkspaceDialog = lazy(() =>
  import('../components/overlays/RemovedFromWorkspaceDialog.tsx').then((m) => ({
    default: m.RemovedFromWorkspaceDialog,
  })),
);
// The joined room (its session, socket and views) is a chunk of its own: the entry page (the join form) shows without
// it, and it downloads while the visitor types a name (JoinOverlay) or, with a saved session, right away.
const SessionHost = lazy(() => loadRoomSession().then((m) => ({ default: m.SessionHost })));
const goHome = () => window.location.assign('/');

/** The room page is not indexed by search engines. */
function useNoIndex(): void {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

export function RoomPage({ target }: { target: RoomTarget }) {
  // the room's texts (its conversation's and its frame's), before anything of the room shows
  useCatalog('room');
  useCatalog('roomside');
  const t = useT();
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const navigate = useNavigate();
  const targetKey =
    target.kind === 'room' ? `room:${target.roomName}:${target.create}:${target.via}` : `ws:${target.workspaceId}`;
  useNoIndex();

  useEffect(() => {
    if (target.kind === 'room' && consumeTokenParams(window.location.search, target.roomName)) {
      stripQueryParams(['workspaceId', 'username', 'token']);
    }
    const ctrl = new AbortController();
    setPhase({ kind: 'loading' });
    void resolveRoom(target, ctrl.signal).then((next) => {
      if (!next || ctrl.signal.aborted) return;
      stripQueryParams(['create']);
      if (next.kind === 'redirect') void navigate(next.to, { replace: true });
      else setPhase(next);
    });
    return () => ctrl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [targetKey, attempt]);

  // (deleted and kicked: their dialogs go home by themselves)
  const redirects = phase.kind === 'joinFailed' || (phase.kind === 'notFound' && phase.redirectHome);
  useEffect(() => {
    if (!redirects) return;
    const t = setTimeout(() => window.location.assign('/'), REDIRECT_HOME_MS);
    return () => clearTimeout(t);
  }, [redirects]);

  switch (phase.kind) {
    case 'loading':
    case 'redirect':
      return <LoadingScreen text={t('roomside.load.loadingRoom')} />;
    case 'overlay':
      return (
        <JoinOverlay
          key={`${phase.mode}-${phase.roomName}`}
          mode={phase.mode}
          roomName={phase.roomName}
          workspaceId={phase.workspaceId}
          isPasswordProtected={phase.isPasswordProtected}
        />
      );
    case 'loadError':
      return <LoadErrorView message={phase.message} onRetry={() => setAttempt((n) => n + 1)} />;
    case 'notFound':
      return (
        <div className="overlay-screen">
          <RoomNotFoundModal
            message={phase.message}
            redirecting={phase.redirectHome}
            onCreate={() => {
              const name = phase.roomName;
              if (name)
                setPhase({
                  kind: 'overlay',
                  mode: 'create',
                  roomName: name,
                  workspaceId: null,
                  isPasswordProtected: false,
                });
              else window.location.assign('/');
            }}
          />
        </div>
      );
    case 'session':
      return (
        <Suspense fallback={<LoadingScreen text={t('roomside.load.loadingRoom')} />}>
          <SessionHost auth={phase.auth} onPhase={setPhase} />
        </Suspense>
      );
    case 'joinFailed':
      return <JoinFailedView message={errorText(null, phase.message)} />;
    case 'deleted':
      return (
        <div className="overlay-screen">
          <Suspense fallback={null}>
            <SuccessDialog
              title={t('roomside.ended.deletedTitle')}
              message={errorText(null, phase.message)}
              note={t('roomside.ended.redirecting')}
              tone={phase.byMe ? 'success' : 'warning'}
              autoCloseMs={REDIRECT_HOME_MS}
              onClose={goHome}
              testId="workspace-deleted-modal"
            />
          </Suspense>
        </div>
      );
    case 'kicked':
      // docs/product/rooms.md R22: this room page's removal modal says Removed from Chat Room and goes home after 3 s
      return (
        <div className="overlay-screen">
          <Suspense fallback={null}>
            <RemovedFromWorkspaceDialog
              reason={errorText(null, phase.reason)}
              title={t('roomside.ended.removedTitle')}
              homeLabel={t('roomside.ended.goHome')}
              redirectMs={REDIRECT_HOME_MS}
              testId="kicked-modal"
            />
          </Suspense>
        </div>
      );
  }
}
