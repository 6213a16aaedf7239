import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { initI18n } from './i18n/i18n.ts';
import { registerServiceWorker } from './lib/serviceWorker.ts';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  // the texts every screen shows and the public pages' load before the first render (docs/i18n.md); a download that
  // failed (a network blip) is tried once more
  const load = () => initI18n(['common', 'public']);
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
