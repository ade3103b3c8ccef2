/**
 * Opens what a server instance needs: the database (migrated), the providers chosen by
 * configuration. Returns the context and how to stop it.
 */
import type { Config } from './config.ts';
import { type AppContext, type Clock, systemClock } from './context.ts';
import { type Db, isDatabaseUnavailable, openDb } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { Jobs } from './jobs/index.ts';
import { createMetrics } from './metrics.ts';
import { createFraudDbProvider } from './providers/fraud-db/index.ts';
import { createKycProvider } from './providers/kyc/index.ts';
import { createPaymentsProvider } from './providers/payments/index.ts';
import { createPayoutsProvider } from './providers/payouts/index.ts';
import { createRatesProvider } from './providers/rates/index.ts';
import { createSmsProvider } from './providers/sms/index.ts';

export interface RunningContext extends AppContext {
  stop(): Promise<void>;
}

export async function createContext(
  config: Config,
  options: { clock?: Clock; dataDir?: string } = {},
): Promise<RunningContext> {
  const db = await openMigrated(config, options.dataDir ?? config.DATA_DIR);
  const clock = options.clock ?? systemClock;
  const jobs = new Jobs(config, db);
  const metrics = createMetrics(db, jobs);
  const ctx: AppContext = {
    config,
    db,
    clock,
    sms: metrics.instrumentProvider('sms', createSmsProvider(config, db, clock)),
    payments: metrics.instrumentProvider('payments', createPaymentsProvider(config, db, clock)),
    payouts: metrics.instrumentProvider('payouts', createPayoutsProvider(config, db, clock, jobs)),
    kyc: createKycProvider(config, db, clock),
    rates: metrics.instrumentProvider('rates', createRatesProvider(config)),
    fraudDb: createFraudDbProvider(config),
    jobs,
    metrics,
  };
  return {
    ...ctx,
    async stop() {
      ctx.sms.close?.();
      await db.close();
    },
  };
}

/**
 * Opens and migrates the database, waiting while it is out of reach or read-only (a cluster failing
 * over, or started after the servers): an instance started then comes up once the database does,
 * instead of exiting. Any other failure (a wrong password, a broken migration) stops start-up.
 */
async function openMigrated(config: Config, dataDir: string): Promise<Db> {
  const started = Date.now();
  let lastLog = 0;
  for (let attempt = 1; ; attempt++) {
    let db: Db | undefined;
    try {
      db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir, poolSize: config.DB_POOL_SIZE });
      await migrate(db);
      return db;
    } catch (error) {
      await db?.close().catch(() => {});
      if (!isDatabaseUnavailable(error)) throw error;
      if (Date.now() - lastLog >= 5_000) {
        lastLog = Date.now();
        console.warn(
          `database unavailable (${(error as Error).message}); waiting, ${Math.round((Date.now() - started) / 1000)} s so far`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 200 * attempt)));
    }
  }
}
