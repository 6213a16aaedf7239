/** What @lingui/react imports from use-sync-external-store/shim (vite.config.ts): React 19's own hook. */
export { useSyncExternalStore } from 'react';
