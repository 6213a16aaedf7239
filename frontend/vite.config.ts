import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { bundleBudget } from './bundle-budget.ts';
import { routePreload } from './route-preload.ts';
import { installableApp } from './installable-app.ts';
import { linguiCatalogs } from './lingui-catalogs.ts';

const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    // the message catalogs in Lingui's precompiled form: no message parser in the browser (docs/i18n.md)
    linguiCatalogs(),
    // the room as a visitor sees it: its page (the join form) and the joined room's chunk, counted together
    bundleBudget({ routePages: [/\/pages\/Room(Page|Session)\.tsx$/] }),
    routePreload({ page: /\/pages\/RoomPage\.tsx$/, fileName: 'room.html' }),
    // the web app manifest, its icons and the service worker of the application shell (docs/product/install.md)
    installableApp({
      name: 'Ephemera',
      shortName: 'Ephemera',
      description: 'Instant, temporary group chat rooms. Pick a name, share the link, chat.',
      themeColor: '#3b82f6',
      backgroundColor: '#ffffff',
      iconSvg: fileURLToPath(new URL('./public/favicon.svg', import.meta.url)),
      routePage: /\/pages\/Room(Page|Session)\.tsx$/,
    }),
    // .br and .gz beside every script, style and SVG: the embedded server sends them as they are (platform/web.ts),
    // so a phone downloads about a third of the bytes and the server compresses nothing per request.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|svg|html)$/, threshold: 1024 }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // the real limit is bundleBudget's (initial JS, gzipped); this one only warns about raw chunk size
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // What every page loads first is two files, not twenty: the libraries in one chunk and the app's shell in the
        // entry. On a phone's link each request costs a round trip, and Lighthouse's simulated slow 4G (PF25) counts
        // every one before the first paint. Lazy chunks stay as the bundler splits them (a shared group would make
        // every public page download the room's code).
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'], priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, ws: true, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, ws: true, changeOrigin: true },
    },
  },
});
