/**
 * Registers the service worker that keeps the application shell (docs/product/install.md; the worker is written at
 * build by frontend/installable-app.ts). After the page's load event, so its downloads never compete with the page's
 * own. The dev server has no worker: its registration fails quietly, like one the browser refuses.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      /* no worker (private mode, a blocked scope, the dev server): the app works as before, only not offline */
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
