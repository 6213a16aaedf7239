/**
 * The app-wide Removed dialog (docs/product/admin.md ADM13) on every page but a room's: a removal the room page
 * heard in another tab (lib/removal.ts) shows here with its reason, and goes home after 5 s or on Go to Home Page.
 * The dialog's code loads only when a removal arrives.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { onRemoval, showsRemovalOn, type Removal } from '../../lib/removal.ts';

const RemovedFromWorkspaceDialog = lazy(() =>
  import('./RemovedFromWorkspaceDialog.tsx').then((m) => ({ default: m.RemovedFromWorkspaceDialog })),
);

export function RemovedHost() {
  const { pathname } = useLocation();
  const [removal, setRemoval] = useState<Removal | null>(null);
  const shows = showsRemovalOn(pathname);
  useEffect(() => (shows ? onRemoval(setRemoval) : undefined), [shows]);
  if (!removal || !shows) return null;
  return (
    <Suspense fallback={null}>
      <RemovedFromWorkspaceDialog reason={removal.reason} />
    </Suspense>
  );
}
