import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative as relativePath, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { calls } from '@e-wallet/contract';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { type BrandConfig, loadBrand } from './brands/brand.ts';
import { modulesOfRoute, type RouteModuleName, routeMatchers } from './src/app/route-plan.ts';
import type { RoutePreloadTable } from './src/preload-route.ts';

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

const routeModulesFile = fileURLToPath(new URL('./src/app/route-modules.ts', import.meta.url));

/** The module file of each lazy route module, from its loader in app/route-modules.ts. */
function routeModuleFiles(): Map<RouteModuleName, string> {
  const files = new Map<RouteModuleName, string>();
  for (const [, module, path] of readFileSync(routeModulesFile, 'utf8').matchAll(
    /^ {2}(\w+): routeModule\(\(\) => import\('([^']+)'\)\),$/gm,
  ))
    files.set(module as RouteModuleName, resolvePath(dirname(routeModulesFile), path!));
  return files;
}

/** The first script of index.html (routePreload), an entry of its own. */
const ROUTE_PRELOAD_ENTRY = 'src/preload-route.ts';
/** The main chunk's name (firstScreenChunks' group of what the main entry imports). */
const MAIN_CHUNK = 'index';

/**
 * The chunks of a signed-in first screen. Left to itself the bundler makes a chunk for every set
 * of routes that shares some modules: the home page needed 20 files (about 60 KiB gzip) besides
 * the main ones, each a request of its own after src/preload-route.ts has run. On a phone
 * network every request costs a round trip and a browser opens about 6 connections per origin,
 * so they arrived in rounds, and the first paint waited for the last (Lighthouse: LCP ~2.9 s).
 * Here the modules of the signed-in layout and the home page that the sign-in pages do not use
 * are one chunk (`signed-in`, one stylesheet); the other signed-in pages load the few home-page
 * modules they do not show with it (a few KiB), but no page's own stylesheet (see below).
 * Everything the main entry imports is one chunk too (`index`: React, the router, i18n and the
 * texts were four files, one more round of requests before anything could run), with the few
 * modules both the signed-in area and the sign-in pages use.
 */
function firstScreenChunks(): Plugin {
  const groupOf = new Map<string, string>();
  return {
    name: 'e-wallet-first-screen-chunks',
    apply: 'build',
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              // Only the modules named here: their dependencies stay where the bundler puts them.
              includeDependenciesRecursively: false,
              groups: [{ name: (id: string) => groupOf.get(id) ?? null }],
            },
          },
        },
      },
    }),
    buildEnd() {
      // Each module with what it imports statically (a dynamic import starts a chunk of its own),
      // or, walking `importers`, with every module that imports it.
      const reach = (starts: string[], next: 'importedIds' | 'importers' = 'importedIds'): Set<string> => {
        const seen = new Set<string>();
        const queue = starts.filter((id) => this.getModuleInfo(id));
        while (queue.length) {
          const id = queue.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          queue.push(...(this.getModuleInfo(id)?.[next] ?? []));
        }
        return seen;
      };
      const files = routeModuleFiles();
      const of = (names: RouteModuleName[]) =>
        names.map((name) => {
          const file = files.get(name);
          if (!file) throw new Error(`first-screen chunks: no loader for ${name} in ${routeModulesFile}`);
          return file;
        });
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      // The route preload's own modules (the stored language's reader) stay out of the main chunk:
      // importing them from it, the first script would wait for the main chunk to arrive and run.
      const early = reach(entries.filter((id) => id.endsWith(ROUTE_PRELOAD_ENTRY)));
      const main = reach(entries.filter((id) => !early.has(id)));
      const signedIn = reach(of(['HomeLayout', 'HomePage']));
      const signedOut = reach(of(['AuthInPage', 'LoginPage', 'RegisterPage']));
      const layout = reach(of(['HomeLayout']));
      // A page's own stylesheet, and every module that imports one, stays with the pages that
      // import it: in the signed-in chunk it would apply on every signed-in page (the home page's
      // wallet.css restyled the others).
      const pageCss = [...signedIn].filter((id) => /\.css($|\?)/.test(id) && !layout.has(id));
      const withPageCss = reach(pageCss, 'importers');
      groupOf.clear();
      for (const id of main)
        if (!this.getModuleInfo(id)?.isEntry && !early.has(id)) groupOf.set(id, MAIN_CHUNK);
      for (const id of signedIn) {
        if (main.has(id) || early.has(id) || withPageCss.has(id)) continue;
        // What the sign-in pages use too (the API client, the code and text fields) is small and
        // needed by nearly every first screen: it goes with the main chunk, one request fewer.
        groupOf.set(id, signedOut.has(id) ? MAIN_CHUNK : 'signed-in');
      }
    },
  };
}

/**
 * The route preload (src/preload-route.ts, app/route-modules.ts): `src/preload-route.ts` becomes an
 * entry of its own whose script comes first in index.html (a second module script in index.html
 * itself would be merged into the main entry and run only after it), and index.html gets a JSON
 * block `#route-preload`: for each route (app/route-plan.ts), signed in and signed out, the files
 * its first screen's lazy modules need (each module's chunk, the chunks it imports, their styles,
 * the images the module itself shows),
 * as indexes into one list of names under /assets/. The modules' chunks are found from the loaders
 * in app/route-modules.ts; one that cannot be found stops the build.
 */
function routePreload(): Plugin {
  const name = 'preload-route';
  let root = process.cwd();
  /** The images each route module imports itself (paths from the root), read when the build ends. */
  const imagesOf = new Map<string, string[]>();
  return {
    name: 'e-wallet-route-preload',
    config: () => ({
      build: { rollupOptions: { input: { index: 'index.html', [name]: ROUTE_PRELOAD_ENTRY } } },
    }),
    configResolved: (config) => {
      root = config.root;
    },
    buildEnd() {
      imagesOf.clear();
      for (const file of routeModuleFiles().values())
        imagesOf.set(
          file,
          (this.getModuleInfo(file)?.importedIds ?? [])
            .filter((image) => /\.(svg|png|jpe?g|webp|avif)$/.test(image))
            .map((image) => relativePath(root, image)),
        );
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html; // development: Vite serves the modules unbundled
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === name);
        if (!entry) throw new Error(`route preload: no ${name} entry chunk in the bundle`);
        // Importing from the main chunk, it would run only after that chunk arrived and ran.
        const heavy = entry.imports.filter(
          (file) => chunks.find((c) => c.fileName === file)?.name === MAIN_CHUNK,
        );
        if (heavy.length)
          throw new Error(`route preload: ${entry.fileName} imports the main chunk ${heavy.join(', ')}`);

        const filesOf = (fileName: string, seen = new Set<string>()): string[] => {
          if (seen.has(fileName)) return [];
          seen.add(fileName);
          const chunk = chunks.find((c) => c.fileName === fileName);
          if (!chunk) return [];
          const css = [...(chunk.viteMetadata?.importedCss ?? [])];
          return [fileName, ...css, ...chunk.imports.flatMap((file) => filesOf(file, seen))];
        };
        const files: string[] = [];
        const modules: Partial<Record<RouteModuleName, number[]>> = {};
        for (const [module, id] of routeModuleFiles()) {
          // A module of a group (firstScreenChunks) is in a chunk with others, not a chunk of its own.
          const chunk =
            chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
          if (!chunk) throw new Error(`route preload: no chunk for ${module} (${id})`);
          if (!chunk.fileName.startsWith('assets/'))
            throw new Error(`route preload: ${chunk.fileName} not under assets/`);
          // The images the page itself shows (Home's QR promo is its largest paint); not its
          // dependencies' (the country picker's flags load on demand).
          // The module's own imports, since its chunk may hold other modules (firstScreenChunks).
          const imageSources = new Set(imagesOf.get(id) ?? []);
          const images = Object.values(bundle)
            .filter(
              (file) =>
                file.type === 'asset' && file.originalFileNames.some((source) => imageSources.has(source)),
            )
            .map((file) => file.fileName);
          // Files already in index.html's own links are left out.
          modules[module] = [...new Set([...filesOf(chunk.fileName), ...images])]
            .filter((file) => !html.includes(`"/${file}"`))
            .map((file) => {
              const short = file.replace(/^assets\//, '');
              if (!files.includes(short)) files.push(short);
              return files.indexOf(short);
            });
        }
        const indexes = (names: RouteModuleName[]) => [
          ...new Set(
            names.flatMap((module) => {
              const found = modules[module];
              if (!found) throw new Error(`route preload: no loader for ${module} in ${routeModulesFile}`);
              return found;
            }),
          ),
        ];
        const table: RoutePreloadTable = {
          files,
          routes: routeMatchers().map(({ name: route, pattern }) => [
            pattern,
            indexes(modulesOfRoute(route, true)),
            indexes(modulesOfRoute(route, false)),
          ]),
        };

        // `async`: it runs as soon as it arrives, not after the main entry (deferred scripts keep order).
        const tags = [
          `<script type="application/json" id="route-preload">${JSON.stringify(table)}</script>`,
          `<script type="module" async crossorigin src="/${entry.fileName}"></script>`,
          ...entry.imports
            .filter((file) => !html.includes(`"/${file}"`))
            .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
        ];
        return html.replace(/(\s*)(<script type="module")/, (_all, space: string, script: string) =>
          [...tags, script].map((tag) => `${space}${tag}`).join(''),
        );
      },
    },
  };
}

/**
 * Precompressed copies of the text files the browser loads (`x.js.br` and `x.js.gz` beside
 * `x.js`), made once at build time. The app's JavaScript, styles and index.html are text that
 * compresses to a third or less; a server that answers with them (@fastify/static's
 * `preCompressed: true`) sends far fewer bytes on the first visit without compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'e-wallet-precompress',
    apply: 'build',
    configResolved: (config) => {
      outDir = resolvePath(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|html|svg|json|webmanifest)$/.test(file.fileName)) continue;
        const source = file.type === 'chunk' ? file.code : file.source;
        const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source);
        if (bytes.length < 1024) continue;
        const path = resolvePath(outDir, file.fileName);
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(bytes, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          }),
        );
      }
    },
  };
}

/**
 * The installable app (docs/product.md#states-and-transitions,
 * docs/product.md#business-constants-and-limits): the web manifest of the brand and a service worker that
 * precaches the app shell (the built JavaScript, styles, index.html, icons) and nothing else: API answers
 * (/v2: money, personal data), the sandbox, the docs and /version.json always go to the network. The app
 * registers the worker itself after the start-up version check (src/app/version-check.ts), so no registration
 * script is injected.
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
      /^\/verify\//,
    ],
    // Nothing is cached at run time: every other request, API answers included, goes to the network.
    runtimeCaching: [],
    // Web Push: showing a push and opening its screen (public/push-sw.js).
    importScripts: ['/push-sw.js'],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: false,
  },
});

/**
 * The QR decoder (zxing-wasm) carries a default address of its .wasm on a public CDN. The app loads
 * its own copy (features/payment/qr/decoder.ts), so that address is never used, and it must not
 * ship either (docs/decisions/placeholders-and-defects.md#defects-are-fixed: nothing is loaded from a
 * public CDN). It is replaced by an empty string, and the build fails if any public CDN address is
 * left in what it writes.
 */
const PUBLIC_CDN =
  /https?:\/\/(?:[a-z0-9-]+\.)*(?:jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|esm\.sh|skypack\.dev)/i;
function noPublicCdn(): Plugin {
  return {
    name: 'e-wallet-no-public-cdn',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('zxing-wasm')) return undefined;
      const cleaned = code.replace(/`https:\/\/fastly\.jsdelivr\.net\/npm\/zxing-wasm@[^`]*`/g, '""');
      return cleaned === code ? undefined : { code: cleaned, map: null };
    },
    generateBundle(_options, bundle) {
      for (const [name, file] of Object.entries(bundle)) {
        const text = file.type === 'chunk' ? file.code : typeof file.source === 'string' ? file.source : '';
        const found = PUBLIC_CDN.exec(text);
        if (found) this.error(`${name} contains a public CDN address: ${found[0]}`);
      }
    },
  };
}

export default defineConfig({
  plugins: [
    noPublicCdn(),
    react(),
    callTable(),
    brandConfig(brand),
    firstScreenChunks(),
    routePreload(),
    precompress(),
    pwa,
  ],
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
