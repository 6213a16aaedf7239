import { StrictMode } from 'react';
import { z } from 'zod';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './styles.css';

// zod probes for eval support with Function(''); our CSP forbids eval, so tell zod not to try (no CSP noise).
z.config({ jitless: true });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
