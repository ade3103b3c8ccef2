/**
 * The app side, in the system Chromium: initial JavaScript (gzip) of each route of the built app,
 * whether the QR decoder stays out until used, Lighthouse mobile scores, and QR decoding time of a
 * 1920x1080 photo-like image with the app's decoder (zxing-wasm, the app's reader options).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import QRCode from 'qrcode';
import { log, NODE, type Options, ROOT, run } from './lib.ts';

export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the built app is: WEB_DIST, else apps/web/dist (CI builds it in `npm test` before the bench). */
export function webDist(): string | null {
  const dist = process.env.WEB_DIST || join(ROOT, 'apps/web/dist');
  return existsSync(join(dist, 'index.html')) ? dist : null;
}

const SESSION_KEY = 'e-wallet-session';
const sessionValue = (token: string) => JSON.stringify({ state: { authToken: token }, version: 0 });

export interface RouteJs {
  route: string;
  scripts: number;
  files: string[];
  gzipKiB: number;
  budgetKiB: number;
  withinBudget: boolean;
  qrDecoderLoaded: boolean;
}

/**
 * Loads each route in headless Chromium (phone viewport) and sums the gzip sizes of the JavaScript
 * requested before the network is idle. The QR decoder (zxing and its .wasm) must not be among them.
 */
export async function routeJavaScript(
  options: Options,
  base: string,
  token: string,
  accountId: string | null,
): Promise<RouteJs[]> {
  const browser = await chromium.launch({ executablePath: options.chromium, args: CHROME_FLAGS.slice(1) });
  const routes = [
    '/auth/login',
    '/',
    '/history',
    '/wallet',
    ...(accountId ? [`/wallet/${accountId}`] : []),
    '/wallet/topup',
    '/wallet/withdrawal',
    '/wallet/save',
    '/payment',
    '/settings',
  ];
  const results: RouteJs[] = [];
  try {
    for (const route of routes) {
      const signedIn = !route.startsWith('/auth');
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ru-RU' });
      if (signedIn)
        await context.addInitScript(
          ([key, value]) => {
            localStorage.setItem(key!, value!);
          },
          [SESSION_KEY, sessionValue(token)],
        );
      const page = await context.newPage();
      const scripts = new Map<string, number>();
      let qr = false;
      const pending: Promise<void>[] = [];
      page.on('response', (response) => {
        const url = response.url();
        if (/zxing|\.wasm(\?|$)/i.test(url)) qr = true;
        if (!/\.m?js(\?|$)/.test(url)) return;
        pending.push(
          response
            .body()
            .then((body) => {
              scripts.set(url, gzipSync(body, { level: 9 }).length);
            })
            .catch(() => {}),
        );
      });
      // Signed in, the app holds its event stream open, so the network never goes idle: the route has
      // loaded its scripts once a second passes without a new response.
      await page.goto(`${base}${route}`, { waitUntil: 'load', timeout: 60_000 });
      for (let seen = -1, waited = 0; seen !== pending.length && waited < 15_000; waited += 1000) {
        seen = pending.length;
        await page.waitForTimeout(1000);
      }
      await Promise.all(pending);
      const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
      const budgetKiB = route === '/auth/login' ? 130 : 200;
      const gzipKiB = Math.round((total / 1024) * 10) / 10;
      results.push({
        route,
        scripts: scripts.size,
        // Each file and its gzip KiB, largest first: where a route's budget goes.
        files: [...scripts]
          .sort(([, a], [, b]) => b - a)
          .map(([url, size]) => `${new URL(url).pathname.split('/').pop()} ${(size / 1024).toFixed(1)}`),
        gzipKiB,
        budgetKiB,
        withinBudget: gzipKiB <= budgetKiB,
        qrDecoderLoaded: qr,
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

export interface LighthouseScores {
  route: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  failing: string[];
  /** What Lighthouse's errors-in-console audit saw (best practices). */
  consoleErrors: string[];
}

/**
 * Lighthouse (CLI, mobile defaults) on a page; signed in by a profile whose localStorage holds the token.
 *
 * Lighthouse's runtime errors here come from Chrome's tracing, not the page: NO_NAVSTART is a trace
 * without the page's `navigationStart`, because the renderer that takes the navigation (a spare one
 * Chrome started before tracing) began recording only after the navigation had started, which a busy
 * machine makes likely. `--disable-features=SpareRendererForSitePerProcess` makes Chrome launch that
 * renderer for the navigation itself, with tracing on from its start; as a safeguard a run that still
 * ends in a runtime error is repeated (at most 3 attempts, each in a fresh profile, since a profile a
 * run has used keeps its service worker) and the result names the errors retried.
 */
export async function lighthouse(
  options: Options,
  base: string,
  route: string,
  token: string | null,
): Promise<LighthouseScores & { retriedAfter: string[] }> {
  const attempts = 3;
  const retriedAfter: string[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const profile = mkdtempSync(join(tmpdir(), 'ewallet-bench-lh-'));
    const report = join(profile, 'report.json');
    try {
      if (token) {
        // Write the token into this fresh profile's localStorage, then let Lighthouse keep storage.
        const context = await chromium.launchPersistentContext(join(profile, 'chrome'), {
          executablePath: options.chromium,
          args: CHROME_FLAGS.slice(1),
        });
        const page = context.pages()[0] ?? (await context.newPage());
        await page.goto(`${base}/healthz`);
        await page.evaluate(
          ([key, value]) => localStorage.setItem(key!, value!),
          [SESSION_KEY, sessionValue(token)],
        );
        await context.close();
      }
      const chromeFlags = [
        ...CHROME_FLAGS,
        '--disable-features=SpareRendererForSitePerProcess',
        `--user-data-dir=${join(profile, 'chrome')}`,
      ];
      await run(
        NODE,
        [
          join(ROOT, 'node_modules/lighthouse/cli/index.js'),
          `${base}${route}`,
          '--output=json',
          `--output-path=${report}`,
          '--only-categories=performance,accessibility,best-practices',
          '--quiet',
          ...(token ? ['--disable-storage-reset'] : []),
          `--chrome-flags=${chromeFlags.join(' ')}`,
        ],
        { CHROME_PATH: options.chromium },
      );
      const lhr = JSON.parse(readFileSync(report, 'utf8'));
      if (lhr.runtimeError && attempt < attempts) {
        retriedAfter.push(String(lhr.runtimeError.code));
        log(
          `Lighthouse ${route}: runtime error ${lhr.runtimeError.code} (attempt ${attempt}); running again`,
        );
        continue;
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? 0;
      const failing = Object.entries(
        lhr.categories as Record<string, { auditRefs: { id: string; weight: number }[] }>,
      )
        .filter(([id]) => id !== 'performance')
        .flatMap(([, category]) =>
          category.auditRefs
            .filter(
              (ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && lhr.audits[ref.id]?.score < 1,
            )
            .map((ref) => ref.id),
        );
      if (lhr.runtimeError) failing.push(`runtime error ${lhr.runtimeError.code}`);
      if (lhr.finalDisplayedUrl && !lhr.finalDisplayedUrl.endsWith(route))
        failing.push(`ended at ${lhr.finalDisplayedUrl}`);
      return {
        route,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        fcpMs: Math.round(audit('first-contentful-paint')),
        lcpMs: Math.round(audit('largest-contentful-paint')),
        tbtMs: Math.round(audit('total-blocking-time')),
        cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
        failing,
        consoleErrors: (lhr.audits['errors-in-console']?.details?.items ?? []).map(
          (item: { source?: string; description?: string; url?: string }) =>
            `${item.source ?? ''}: ${item.description ?? ''} ${item.url ?? ''}`.slice(0, 300),
        ),
        retriedAfter,
      };
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  }
}

/** The app's reader options (features/payment/qr/qr-read.ts), so the bench decodes as the app does. */
async function readerOptions(): Promise<Record<string, unknown>> {
  try {
    const module = await import('../apps/web/src/features/payment/qr/qr-read.ts');
    return { ...module.QR_READER_OPTIONS };
  } catch (error) {
    log(
      `qr: the app's reader options could not be read (${(error as Error).message}); using its documented ones`,
    );
    return {
      formats: ['QRCode'],
      tryHarder: true,
      tryRotate: true,
      tryInvert: true,
      tryDownscale: true,
      maxNumberOfSymbols: 4,
    };
  }
}

const QR_PAGE = `<!doctype html><meta charset="utf-8"><title>qr bench</title><script src="/zxing.js"></script>`;

/**
 * Draws a 1920x1080 photo-like scene in the page (gradient light, blurred shapes, a paper card
 * with the QR code turned and slightly blurred, sensor noise), then decodes it `runs` times with
 * zxing-wasm's readBarcodes on the pixels, as the app's decodeQrPixels does. Answers the median.
 */
export async function qrDecode(
  options: Options,
  runs: number,
): Promise<{ medianMs: number; firstMs: number; runs: number; decoded: boolean; text: string }> {
  const dir = join(ROOT, 'node_modules/zxing-wasm/dist/iife/reader');
  const files: Record<string, [string, string]> = {
    '/': [QR_PAGE, 'text/html; charset=utf-8'],
    '/zxing.js': [readFileSync(join(dir, 'index.js'), 'utf8'), 'text/javascript'],
  };
  const wasm = readFileSync(join(ROOT, 'node_modules/zxing-wasm/dist/reader/zxing_reader.wasm'));
  const server = createServer((request, response) => {
    if (request.url === '/zxing_reader.wasm') {
      response.writeHead(200, { 'content-type': 'application/wasm' }).end(wasm);
      return;
    }
    const file = files[request.url ?? ''];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file[1] }).end(file[0]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const text =
    'ST00012|Name=ООО «Ромашка»|PersonalAcc=40702810938000000001|BankName=ПАО Сбербанк|BIC=044525225|CorrespAcc=30101810400000000225|Sum=150000|Purpose=Оплата заказа 42';
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const modules = { size: qr.modules.size, bits: Array.from(qr.modules.data as Uint8Array) };
  const browser = await chromium.launch({ executablePath: options.chromium, args: CHROME_FLAGS.slice(1) });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    return await page.evaluate(
      async ({ modules, readerOptions, runs }) => {
        // A small deterministic random source for the scene.
        let state = 12345;
        const random = () => {
          state = (state * 1103515245 + 12345) & 0x7fffffff;
          return state / 0x7fffffff;
        };
        const width = 1920;
        const height = 1080;
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const g = canvas.getContext('2d', { willReadFrequently: true })!;
        const light = g.createLinearGradient(0, 0, width, height);
        light.addColorStop(0, '#8a7f70');
        light.addColorStop(0.5, '#c9bfa8');
        light.addColorStop(1, '#4f4a40');
        g.fillStyle = light;
        g.fillRect(0, 0, width, height);
        g.filter = 'blur(18px)';
        for (let i = 0; i < 60; i++) {
          g.fillStyle = `hsla(${Math.floor(random() * 360)}, 35%, ${25 + Math.floor(random() * 50)}%, 0.6)`;
          g.beginPath();
          g.ellipse(
            random() * width,
            random() * height,
            40 + random() * 220,
            30 + random() * 160,
            random() * 3,
            0,
            7,
          );
          g.fill();
        }
        g.filter = 'none';
        // Texture: fine lines like a table or fabric.
        g.strokeStyle = 'rgba(40, 30, 20, 0.15)';
        for (let i = 0; i < 400; i++) {
          g.beginPath();
          const x = random() * width;
          const y = random() * height;
          g.moveTo(x, y);
          g.lineTo(x + (random() - 0.5) * 300, y + (random() - 0.5) * 40);
          g.stroke();
        }
        // The printed code on a card, turned 8 degrees, about 420 px wide, a little out of focus.
        const cell = 9;
        const quiet = 4;
        const side = (modules.size + quiet * 2) * cell;
        const card = document.createElement('canvas');
        card.width = side;
        card.height = side;
        const c = card.getContext('2d')!;
        c.fillStyle = '#f4f1ea';
        c.fillRect(0, 0, side, side);
        c.fillStyle = '#1d1b19';
        for (let y = 0; y < modules.size; y++)
          for (let x = 0; x < modules.size; x++)
            if (modules.bits[y * modules.size + x])
              c.fillRect((x + quiet) * cell, (y + quiet) * cell, cell, cell);
        g.save();
        g.translate(1180, 520);
        g.rotate((8 * Math.PI) / 180);
        g.shadowColor = 'rgba(0,0,0,0.45)';
        g.shadowBlur = 30;
        g.filter = 'blur(1.2px)';
        const shown = 420;
        g.drawImage(card, -shown / 2, -shown / 2, shown, shown);
        g.restore();
        // Uneven light across the card and sensor noise over everything.
        const shade = g.createRadialGradient(400, 200, 100, 900, 600, 1500);
        shade.addColorStop(0, 'rgba(255,255,240,0.12)');
        shade.addColorStop(1, 'rgba(0,0,0,0.25)');
        g.fillStyle = shade;
        g.fillRect(0, 0, width, height);
        const pixels = g.getImageData(0, 0, width, height);
        const data = pixels.data;
        for (let i = 0; i < data.length; i += 4) {
          const n = (random() + random() + random() - 1.5) * 28;
          data[i] = Math.max(0, Math.min(255, data[i]! + n));
          data[i + 1] = Math.max(0, Math.min(255, data[i + 1]! + n));
          data[i + 2] = Math.max(0, Math.min(255, data[i + 2]! + n));
        }
        g.putImageData(pixels, 0, 0);
        const image = g.getImageData(0, 0, width, height);

        // The IIFE build's global.
        const zxing = (window as any).ZXingWASM;
        zxing.prepareZXingModule({
          overrides: {
            locateFile: (path: string, prefix: string) =>
              path.endsWith('.wasm') ? '/zxing_reader.wasm' : prefix + path,
          },
          fireImmediately: true,
        });
        const t0 = performance.now();
        const first = await zxing.readBarcodes(image, readerOptions);
        const firstMs = performance.now() - t0;
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const start = performance.now();
          await zxing.readBarcodes(image, readerOptions);
          times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        const valid = first.filter((r: { isValid: boolean }) => r.isValid);
        return {
          medianMs: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10,
          firstMs: Math.round(firstMs),
          runs,
          decoded: valid.length === 1,
          text: valid[0]?.text ?? '',
        };
      },
      { modules, readerOptions: await readerOptions(), runs },
    );
  } finally {
    await browser.close();
    server.close();
  }
}
