/**
 * The web edge in embedded mode: security headers (docs/product/security.md S13) and the built frontend with the SPA
 * fallback
 * (every path that is not a file or an API route serves index.html; the client routes /{roomName}).
 * In distributed mode nginx serves the same files with the same headers (deploy/local/nginx.conf).
 */
import express from 'express';
import helmet from 'helmet';
import path from 'node:path';
import fs from 'node:fs';
import expressStaticGzip from 'express-static-gzip';
import { INDEXED_PAGES, ROOM_PAGE_PATH } from '@ephemera/proto/client';

export function securityHeaders(): express.RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"], // React style attributes; no inline scripts anywhere
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false, // set by the TLS terminator (ingress), never over plain HTTP
  });
}

/** API answers are never cached (they may carry tokens). */
export function noStore(): express.RequestHandler {
  return (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
}

/** The installable app's files at the root of the build (frontend/installable-app.ts) and how long they keep. */
export const INSTALL_FILES = {
  revalidated: ['sw.js', 'manifest.webmanifest'],
  iconsCache: 'public, max-age=86400',
} as const;

export function frontendStatic(distDir: string): express.Router {
  const router = express.Router();
  const index = path.join(distDir, 'index.html');
  // room paths (proto ROOM_PAGE_PATH): index.html plus the room page's preload links (frontend/route-preload.ts)
  const roomPage = path.join(distDir, 'room.html');
  // The build writes .br and .gz beside each asset (frontend/vite.config.ts): sent as they are to a browser that
  // accepts them (Content-Encoding, Vary: Accept-Encoding), the plain file otherwise.
  router.use(
    '/assets',
    expressStaticGzip(path.join(distDir, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { immutable: true, maxAge: '1y', fallthrough: false },
    }),
  );
  // The service worker and the manifest are revalidated on every load, so a new build's worker replaces the old one
  // at once (docs/product/install.md); the icons keep a day. nginx sends the same headers.
  router.use(
    express.static(distDir, {
      index: false,
      setHeaders: (res, file) => {
        const name = path.basename(file);
        if ((INSTALL_FILES.revalidated as readonly string[]).includes(name)) res.set('Cache-Control', 'no-cache');
        else if (path.basename(path.dirname(file)) === 'icons') res.set('Cache-Control', INSTALL_FILES.iconsCache);
        if (name === 'manifest.webmanifest') res.type('application/manifest+json');
      },
    }),
  );
  router.get(/^\/(?!api\/|socket\.io\/).*/, (req, res) => {
    if (!fs.existsSync(index)) return res.status(503).send('Frontend not built: run npm run build:frontend');
    // Room pages are not for search engines (docs/product/rooms.md R2); the landing and static pages are.
    const indexed = (INDEXED_PAGES as readonly string[]).includes(req.path);
    if (!indexed) res.set('X-Robots-Tag', 'noindex');
    const room = ROOM_PAGE_PATH.test(req.path) && fs.existsSync(roomPage);
    res.set('Cache-Control', 'no-cache').sendFile(room ? roomPage : index);
  });
  return router;
}
