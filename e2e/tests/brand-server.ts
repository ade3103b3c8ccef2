/**
 * Servers of their own for the brand and installable-app browser tests: these tests need a
 * build of another brand (grok) and a server that is restarted with another version on the same
 * origin, which the shared server of playwright.config.ts cannot give. Each server runs the real
 * `apps/server/src/main.ts` on a fresh embedded database and a free port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningServer {
  url: string;
  port: number;
  /** Stops the server and starts it again on the same port (same origin) with other settings. */
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server stopped (${child.exitCode}): ${log()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not start: ${log()}`);
}

export async function startServer(options: {
  webDist: string;
  env?: Record<string, string>;
  port?: number;
}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const dataDir = join(tmpdir(), `ewallet-e2e-own-${process.pid}-${port}`);
  let child: ChildProcess | undefined;

  const start = async (env: Record<string, string>) => {
    rmSync(dataDir, { recursive: true, force: true });
    const inherited = { ...process.env };
    for (const name of ['BRAND', 'APP_VERSION', 'WEB_DIST', 'PORT', 'DATABASE_URL']) delete inherited[name];
    let output = '';
    child = spawn(process.execPath, ['apps/server/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...inherited,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        SMS_PER_ADDRESS_PER_HOUR: '100000',
        CODE_CHECKS_PER_ADDRESS_PER_HOUR: '100000',
        WEB_DIST: options.webDist,
        // Each own server's back office on a free port (the log names it), unless a test names one.
        OPS_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    await waitUntilUp(url, child, () => output.slice(-2000));
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };

  await start(options.env ?? {});
  return {
    url,
    port,
    stop: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    restart: async (env = options.env ?? {}) => {
      await stop();
      await start(env);
    },
  };
}

function builtBrand(dir: string): string | undefined {
  const file = join(dir, 'build-info.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { brand: string }).brand : undefined;
}

/** The default brand's build the suite runs on: WEB_DIST when given, else apps/web/dist. */
export function defaultBuild(): string {
  const dir = process.env.WEB_DIST ?? join(ROOT, 'apps/web/dist');
  const brand = builtBrand(dir);
  if (brand !== 'e-wallet') {
    throw new Error(
      `${dir} is a build of ${brand ?? 'no brand'}; build the default brand there (npm run build)`,
    );
  }
  return dir;
}

/**
 * A build of the grok brand: GROK_WEB_DIST when given, otherwise built once per test run (the
 * first worker builds, the others wait for it) into the system's temporary folder.
 */
export async function grokBuild(): Promise<string> {
  const given = process.env.GROK_WEB_DIST;
  if (given) {
    if (builtBrand(given) !== 'grok') throw new Error(`GROK_WEB_DIST=${given} is not a build of BRAND=grok`);
    return given;
  }
  const dir = join(tmpdir(), `ewallet-e2e-grok-${process.ppid}`);
  const done = join(dir, '.done');
  let builder = false;
  try {
    mkdirSync(`${dir}.lock`);
    builder = true;
  } catch {
    // another worker builds it
  }
  if (builder) {
    await new Promise<void>((resolve, reject) => {
      const build = spawn(
        process.execPath,
        [
          join(ROOT, 'node_modules/vite/bin/vite.js'),
          'build',
          '--outDir',
          dir,
          '--emptyOutDir',
          '--logLevel',
          'error',
        ],
        { cwd: join(ROOT, 'apps/web'), env: { ...process.env, BRAND: 'grok' }, stdio: 'inherit' },
      );
      build.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited ${code}`))));
    });
    mkdirSync(done, { recursive: true });
  }
  const deadline = Date.now() + 180_000;
  while (!existsSync(done)) {
    if (Date.now() > deadline) throw new Error(`No grok build appeared in ${dir}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return dir;
}
