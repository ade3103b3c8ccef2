/**
 * Lighthouse installability of the built app: `node bench/lighthouse-pwa.ts [url]`
 * (default http://127.0.0.1:8080, a server started with `npm start` or the same with WEB_DIST).
 *
 * Lighthouse 12 removed its PWA category, installability audit included, so this adds them back
 * as a Lighthouse plugin-style config: a gatherer that asks Chromium itself, over the DevTools
 * protocol Lighthouse drives, whether the page can be installed (`Page.getInstallabilityErrors`,
 * the check behind Chrome's install prompt) and reads the manifest (`Page.getAppManifest`) and
 * the service worker that controls the page; and four audits over them, scored in an
 * 'Installability' category next to Lighthouse's own categories. Exits 1 when not installable.
 * Chromium: CHROME_PATH (default /usr/bin/chromium), headless, no sandbox, a fresh profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { Audit, Gatherer } from 'lighthouse';

interface InstallabilityArtifact {
  errors: { errorId: string; errorArguments: { name: string; value: string }[] }[];
  manifestUrl: string;
  manifestErrors: { message: string; critical: number }[];
  manifest: Record<string, unknown> | null;
  serviceWorker: { scriptURL: string | null; controlled: boolean };
  themeColorMeta: string | null;
}

class InstallabilityGatherer extends Gatherer {
  override meta = { supportedModes: ['navigation' as const] };

  override async getArtifact(context: any): Promise<any> {
    return this.read(context);
  }

  private async read(context: any): Promise<InstallabilityArtifact> {
    const session = context.driver.defaultSession;
    const evaluate = async (expression: string) =>
      (await session.sendCommand('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }))
        .result.value;
    // The app registers its worker after the start-up version check; give it time to activate.
    const serviceWorker = await evaluate(`(async () => {
      if (!('serviceWorker' in navigator)) return { scriptURL: null, controlled: false };
      const ready = await Promise.race([
        navigator.serviceWorker.ready,
        new Promise((resolve) => setTimeout(() => resolve(null), 15000)),
      ]);
      return { scriptURL: ready?.active?.scriptURL ?? null, controlled: navigator.serviceWorker.controller !== null };
    })()`);
    const themeColorMeta = await evaluate(
      `document.querySelector('meta[name="theme-color"]')?.content ?? null`,
    );
    const { installabilityErrors } = await session.sendCommand('Page.getInstallabilityErrors');
    const manifest = await session.sendCommand('Page.getAppManifest', {});
    return {
      errors: installabilityErrors,
      manifestUrl: manifest.url,
      manifestErrors: manifest.errors,
      manifest: manifest.data ? JSON.parse(manifest.data) : null,
      serviceWorker,
      themeColorMeta,
    };
  }
}

const artifactOf = (artifacts: any): InstallabilityArtifact => artifacts.Installability;

class InstallableManifestAudit extends Audit {
  static override get meta() {
    return {
      id: 'installable-manifest',
      title: 'Web app manifest and service worker meet the installability requirements',
      failureTitle: 'Web app manifest or service worker do not meet the installability requirements',
      description: "Chromium's own installability check (Page.getInstallabilityErrors), as in Lighthouse 11.",
      requiredArtifacts: ['Installability'],
    } as any;
  }

  static override audit(artifacts: any) {
    const { errors, manifestUrl } = artifactOf(artifacts);
    const items = errors.map((error) => ({
      reason: `${error.errorId}${error.errorArguments.map((a) => ` ${a.name}=${a.value}`).join('')}`,
    }));
    return {
      score: manifestUrl && errors.length === 0 ? 1 : 0,
      displayValue: errors.length ? `${errors.length} reason(s)` : manifestUrl,
      details: Audit.makeTableDetails(
        [{ key: 'reason', valueType: 'text', label: 'Failure reason' }] as any,
        items,
      ),
    };
  }
}

class ServiceWorkerAudit extends Audit {
  static override get meta() {
    return {
      id: 'service-worker',
      title: 'Registers a service worker that controls the page and start_url',
      failureTitle: 'Does not register a service worker that controls the page',
      description: 'The app shell service worker (sw.js) is active and controls the page.',
      requiredArtifacts: ['Installability'],
    } as any;
  }

  static override audit(artifacts: any) {
    const { serviceWorker } = artifactOf(artifacts);
    return {
      score: serviceWorker.scriptURL && serviceWorker.controlled ? 1 : 0,
      displayValue: serviceWorker.scriptURL ?? 'none',
    };
  }
}

class MaskableIconAudit extends Audit {
  static override get meta() {
    return {
      id: 'maskable-icon',
      title: 'Manifest has a maskable icon and 192 and 512 px icons',
      failureTitle: 'Manifest lacks a maskable icon or the 192 / 512 px icons',
      description:
        'Phones cut maskable icons to their own shape; 192 and 512 px icons cover the home screen and splash.',
      requiredArtifacts: ['Installability'],
    } as any;
  }

  static override audit(artifacts: any) {
    const icons = (artifactOf(artifacts).manifest?.icons ?? []) as { sizes?: string; purpose?: string }[];
    const has = (size: string, purpose: string) =>
      icons.some(
        (icon) =>
          icon.sizes?.split(' ').includes(size) && (icon.purpose ?? 'any').split(' ').includes(purpose),
      );
    return { score: has('192x192', 'any') && has('512x512', 'any') && has('512x512', 'maskable') ? 1 : 0 };
  }
}

class ThemedOmniboxAudit extends Audit {
  static override get meta() {
    return {
      id: 'themed-omnibox',
      title: 'Sets a theme colour for the address bar',
      failureTitle: 'Does not set a theme colour for the address bar',
      description: 'A theme-color meta tag and the manifest theme_color.',
      requiredArtifacts: ['Installability'],
    } as any;
  }

  static override audit(artifacts: any) {
    const { themeColorMeta, manifest } = artifactOf(artifacts);
    return { score: themeColorMeta && manifest?.theme_color ? 1 : 0, displayValue: themeColorMeta ?? '' };
  }
}

const config = {
  extends: 'lighthouse:default',
  settings: { onlyCategories: ['installability', 'performance', 'accessibility', 'best-practices'] },
  artifacts: [{ id: 'Installability', gatherer: { implementation: InstallabilityGatherer } }],
  audits: [
    { implementation: InstallableManifestAudit },
    { implementation: ServiceWorkerAudit },
    { implementation: MaskableIconAudit },
    { implementation: ThemedOmniboxAudit },
  ],
  categories: {
    installability: {
      title: 'Installability',
      auditRefs: [
        { id: 'installable-manifest', weight: 1 },
        { id: 'service-worker', weight: 1 },
        { id: 'maskable-icon', weight: 1 },
        { id: 'themed-omnibox', weight: 1 },
      ],
    },
  },
};

const url = process.argv[2] ?? 'http://127.0.0.1:8080/';
const profile = mkdtempSync(join(tmpdir(), 'ewallet-lighthouse-'));
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  userDataDir: profile,
  chromeFlags: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
let installable = false;
try {
  const result = await lighthouse(
    url,
    { port: chrome.port, output: 'json', logLevel: 'error' },
    config as any,
  );
  if (!result) throw new Error('Lighthouse returned nothing');
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  console.log(
    `Lighthouse ${lhr.lighthouseVersion} on ${lhr.finalDisplayedUrl} (${lhr.environment.hostUserAgent})`,
  );
  console.table(
    Object.values(lhr.categories).map((category) => ({ category: category.title, score: category.score })),
  );
  const ids = ['installable-manifest', 'service-worker', 'maskable-icon', 'themed-omnibox'];
  console.table(
    ids.map((id) => {
      const audit = lhr.audits[id]!;
      const reasons = ((audit.details as any)?.items ?? []).map((item: { reason: string }) => item.reason);
      return { audit: id, score: audit.score, value: audit.displayValue ?? '', reasons: reasons.join('; ') };
    }),
  );
  installable = lhr.audits['installable-manifest']?.score === 1;
  console.log(installable ? 'Installable: yes' : 'Installable: NO');
} finally {
  chrome.kill();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(installable ? 0 : 1);
