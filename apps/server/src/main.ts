/**
 * Starts the server: reads and validates the environment, opens the database (PGlite in DATA_DIR,
 * or PostgreSQL with DATABASE_URL), applies migrations, listens, and shuts down gracefully.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './create-context.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { SchemaError } from './db/migrate.ts';
import { serveMetrics } from './metrics.ts';
import { buildOpsApp } from './ops/server.ts';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(
      {
        WEB_DIST: fileURLToPath(new URL('../../web/dist', import.meta.url)),
        BACKOFFICE_DIST: fileURLToPath(new URL('../../backoffice/dist', import.meta.url)),
        ...process.env,
      },
      pkg.version,
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let ctx: Awaited<ReturnType<typeof createContext>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let opsApp: Awaited<ReturnType<typeof buildOpsApp>>;
  try {
    ctx = await createContext(config);
    app = await buildApp(ctx);
    // The back office: its own listener, never the public one
    // (docs/decisions/back-office.md#the-operators-back-office).
    opsApp = await buildOpsApp(ctx);
  } catch (error) {
    // Providers check their own settings as they are created, and an older build's database is
    // refused: each is one line naming what is wrong.
    if (error instanceof ConfigError || error instanceof SchemaError || error instanceof DataDirInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await opsApp.close();
      await ctx.stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  const opsAddress = await opsApp.listen({ host: config.OPS_HOST, port: config.OPS_PORT });
  app.log.info(`back office at ${opsAddress}/`);
  if (config.METRICS_PORT !== undefined && ctx.metrics) {
    const metricsServer = await serveMetrics(ctx.metrics, config.METRICS_HOST, config.METRICS_PORT);
    metricsServer.unref();
    app.log.info(`metrics at http://${config.METRICS_HOST}:${config.METRICS_PORT}/metrics`);
  }
  app.log.info(
    { database: ctx.db.kind, version: config.appVersion, env: config.WALLET_ENV, brand: config.BRAND },
    `E-Wallet is listening on ${config.PUBLIC_URL} (press Ctrl+C to stop)`,
  );
}

await main();
