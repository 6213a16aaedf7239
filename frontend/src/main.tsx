import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { initI18n } from './i18n/i18n.ts';
import { catalogAreas, parseRoute } from './lib/routes.ts';
import { startRoomLookup } from './pages/roomLookup.ts';
import { registerServiceWorker } from './lib/serviceWorker.ts';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  // the texts every screen shows, the public pages' and those of the page opened load together before the first
  // render (docs/i18n.md); a download that failed (a network blip) is tried once more
  const route = parseRoute(location.pathname, location.search);
  const areas = catalogAreas(route);
  // a room's address: whether the room exists is asked now, alongside the texts (pages/roomLookup.ts)
  if (route.kind === 'room') startRoomLookup(route.roomName, location.search);
  const load = () => initI18n(areas);
  void load()
    .catch(() => new Promise((resolve) => setTimeout(resolve, 1000)).then(load))
    .then(() =>
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
}
registerServiceWorker();
