import { calls } from '@e-wallet/contract';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { type BrandConfig, loadBrand } from './brands/brand.ts';

// The API and sandbox pages are served by apps/server; in development Vite forwards them there.
const api = process.env.API_ORIGIN ?? 'http://127.0.0.1:8080';

/**
 * `virtual:call-table`: method, path and access of every call, read from the contract at build
 * time. The app calls through the contract's table without shipping zod and the schemas to the
 * browser (they would double the sign-in page's JavaScript).
 */
function callTable(): Plugin {
  const id = 'virtual:call-table';
  return {
    name: 'e-wallet-call-table',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const table = Object.fromEntries(
        Object.entries(calls).map(([name, call]) => [
          name,
          { method: call.method, path: call.path, access: call.access, idempotent: 'idempotent' in call },
        ]),
      );
      return `export const callTable = ${JSON.stringify(table)};`;
    },
  };
}

const appVersion = process.env.APP_VERSION ?? process.env.npm_package_version ?? '0.0.1';
const brandName = process.env.BRAND || 'e-wallet';
const brand = loadBrand(brandName);

/**
 * `virtual:brand`: the chosen brand's configuration (apps/web/brands/<BRAND>.json), the only
 * brand in the bundle. Also writes `build-info.json` ({version, brand}) beside index.html: the
 * server answers /version.json with this build's version and refuses a BRAND other than the
 * build's (apps/server/src/config.ts).
 */
function brandConfig(config: BrandConfig): Plugin {
  const id = 'virtual:brand';
  return {
    name: 'e-wallet-brand',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load: (resolved) =>
      resolved === `\0${id}` ? `export const brand = ${JSON.stringify(config)};` : undefined,
    transformIndexHtml: (html) =>
      html
        .replace('<title>E-Wallet</title>', `<title>${config.name}</title>`)
        .replace(
          /<meta name="theme-color" content="[^"]*"/,
          `<meta name="theme-color" content="${config.themeColor}"`,
        )
        .replace(
          /<meta name="description" content="[^"]*"/,
          `<meta name="description" content="${config.description.ru}"`,
        )
        .replace(
          '</head>',
          `  <link rel="icon" type="image/png" sizes="192x192" href="${config.icons.any192}" />\n` +
            `    <link rel="apple-touch-icon" href="/icons/${config.id}-apple-touch-180.png" />\n  </head>`,
        ),
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'build-info.json',
        source: `${JSON.stringify({ version: appVersion, brand: config.id })}\n`,
      });
    },
  };
}

/**
 * The installable app (spec sections 4, 9): the web manifest of the brand and a service worker
 * that precaches the app shell (the built JavaScript, styles, index.html, icons) and nothing
 * else: API answers (/v2: money, personal data), the sandbox, the docs and /version.json always
 * go to the network. The app registers the worker itself after the start-up version check
 * (src/app/version-check.ts), so no registration script is injected.
 */
const pwa = VitePWA({
  strategies: 'generateSW',
  injectRegister: false,
  filename: 'sw.js',
  manifestFilename: 'manifest.webmanifest',
  includeManifestIcons: true,
  manifest: {
    id: '/',
    name: brand.name,
    short_name: brand.shortName,
    description: brand.description.ru,
    lang: 'ru',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: brand.themeColor,
    background_color: brand.backgroundColor,
    icons: [
      { src: brand.icons.any192, sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: brand.icons.any512, sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: brand.icons.maskable512, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // The shell only: no PDFs (policy documents are opened, not needed offline), no build-info.
    globPatterns: ['**/*.{js,css,html,svg,woff2}', `icons/${brand.id}-*.png`],
    // Country flags (one file each) load on demand in the country picker.
    globIgnores: ['**/policy/**', 'build-info.json', 'assets/[A-Z][A-Z]-*.svg'],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [
      /^\/v2(\/|$)/,
      /^\/sandbox(\/|$)/,
      /^\/docs(\/|$)/,
      /^\/version\.json/,
      /^\/healthz/,
      /^\/policy\//,
    ],
    // Nothing is cached at run time: every other request, API answers included, goes to the network.
    runtimeCaching: [],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: false,
  },
});

export default defineConfig({
  plugins: [react(), callTable(), brandConfig(brand), pwa],
  define: {
    __APP_VERSION__: JSON.stringify(appVersion),
    __BRAND__: JSON.stringify(brandName),
  },
  build: { target: 'es2022', sourcemap: false, assetsInlineLimit: 0 },
  server: {
    proxy: {
      '/v2': api,
      '/sandbox': api,
      '/version.json': api,
      '/docs': api,
    },
  },
});
