/**
 * Vite plugin: the installable app (docs/product/install.md). At build it renders the PNG icons browsers ask for
 * from the SVG favicon (sharp), writes the web app manifest, links both from the HTML, and writes the service worker
 * (/sw.js) with the list of the build's shell files: the HTML pages, the entry's and the room page's scripts and
 * styles, the icons. The worker never touches room content or API answers; src/lib/serviceWorker.ts registers it.
 */
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Plugin } from 'vite';
import { chunksOf, staticClosure } from './bundle-budget.ts';
import { serviceWorkerSource } from './service-worker-source.ts';

export interface InstallableAppOptions {
  name: string;
  shortName: string;
  description: string;
  themeColor: string;
  backgroundColor: string;
  /** the SVG the icons are drawn from */
  iconSvg: string;
  /** the lazy route page whose code belongs to the shell too (the room page) */
  routePage: RegExp;
}

/** The icons Chrome wants for installing (192 and 512, one of them maskable) and the one iOS takes (180). */
const ICONS = [
  { fileName: 'icons/icon-192.png', size: 192, purpose: 'any' },
  { fileName: 'icons/icon-512.png', size: 512, purpose: 'any' },
  { fileName: 'icons/icon-maskable-512.png', size: 512, purpose: 'maskable' },
  { fileName: 'icons/apple-touch-icon.png', size: 180, purpose: null },
] as const;

async function renderIcon(svg: Buffer, size: number, maskable: boolean, background: string): Promise<Buffer> {
  if (!maskable) return sharp(svg, { density: 512 }).resize(size, size).png().toBuffer();
  // a maskable icon's platform mask may cut up to 10% from each side: the picture sits inside the middle 80%
  const inner = Math.round(size * 0.8);
  const picture = await sharp(svg, { density: 512 }).resize(inner, inner).png().toBuffer();
  return sharp({ create: { width: size, height: size, channels: 4, background } })
    .composite([{ input: picture, gravity: 'center' }])
    .png()
    .toBuffer();
}

export function installableApp(options: InstallableAppOptions): Plugin {
  let base = '/';
  return {
    name: 'ephemera-installable-app',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: () => [
      { tag: 'link', attrs: { rel: 'manifest', href: `${base}manifest.webmanifest` }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'apple-touch-icon', href: `${base}icons/apple-touch-icon.png` }, injectTo: 'head' },
    ],
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const svg = fs.readFileSync(options.iconSvg);
        for (const icon of ICONS) {
          const source = await renderIcon(svg, icon.size, icon.purpose === 'maskable', options.themeColor);
          this.emitFile({ type: 'asset', fileName: icon.fileName, source });
        }
        const manifest = {
          id: base,
          name: options.name,
          short_name: options.shortName,
          description: options.description,
          start_url: base,
          scope: base,
          display: 'standalone',
          theme_color: options.themeColor,
          background_color: options.backgroundColor,
          icons: ICONS.filter((i) => i.purpose).map((i) => ({
            src: `${base}${i.fileName}`,
            sizes: `${i.size}x${i.size}`,
            type: 'image/png',
            purpose: i.purpose,
          })),
        };
        this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: JSON.stringify(manifest, null, 2) });

        const chunks = chunksOf(bundle);
        const roots = [...chunks.values()].filter(
          (c) => c.isEntry || (c.facadeModuleId !== null && options.routePage.test(c.facadeModuleId)),
        );
        if (!roots.some((c) => !c.isEntry)) this.error(`installable app: no lazy chunk for ${options.routePage}`);
        const scripts = staticClosure(
          chunks,
          roots.map((c) => c.fileName),
        );
        const styles = scripts.flatMap((f) => [...(chunks.get(f)!.viteMetadata?.importedCss ?? [])]);
        const pages = Object.keys(bundle).filter((f) => f.endsWith('.html'));
        if (pages.length === 0) this.error('installable app: no HTML page in the bundle');
        const shell = [...new Set([...pages, ...scripts, ...styles, ...ICONS.map((i) => i.fileName)])]
          .sort()
          .map((f) => `${base}${f}`)
          .concat(`${base}manifest.webmanifest`);
        // the version changes with any shell file, so a new build's worker replaces the old one and its cache
        const version = createHash('sha256')
          .update(shell.join('\n'))
          .update(pages.map((p) => String((bundle[p] as { source?: unknown }).source ?? '')).join('\n'))
          .digest('hex')
          .slice(0, 12);
        this.emitFile({
          type: 'asset',
          fileName: 'sw.js',
          source: serviceWorkerSource({ version, shell, base }),
        });
      },
    },
  };
}
