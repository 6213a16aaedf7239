import { useEffect, useState } from 'react';
import { Landing } from './pages/Landing.tsx';
import { RoomPage } from './pages/RoomPage.tsx';
import { PlaceholderPage } from './pages/PlaceholderPage.tsx';
import { NAVIGATE_EVENT } from './lib/navigation.ts';
import { parseRoute } from './lib/routes.ts';

function useLocation(): { pathname: string; search: string } {
  const read = () => ({ pathname: window.location.pathname, search: window.location.search });
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const update = () => setLoc((prev) => {
      const next = read();
      return next.pathname === prev.pathname && next.search === prev.search ? prev : next;
    });
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATE_EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATE_EVENT, update);
    };
  }, []);
  return loc;
}

/** A tiny router on window.location.pathname. */
export function App() {
  const { pathname, search } = useLocation();
  const route = parseRoute(pathname, search);

  useEffect(() => {
    if (route.kind === 'redirect') window.location.replace(route.to);
  }, [route]);

  switch (route.kind) {
    case 'landing':
      return <Landing />;
    case 'room':
      return <RoomPage key={`room:${route.roomName.toLowerCase()}`} target={route} />;
    case 'workspace':
      return <RoomPage key={`ws:${route.workspaceId}`} target={route} />;
    case 'page':
      return <PlaceholderPage page={route.page} />;
    case 'notFound':
      return <PlaceholderPage page={null} />;
    case 'redirect':
      return null;
  }
}
