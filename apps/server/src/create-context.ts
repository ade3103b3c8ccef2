/**
 * Opens what a server instance needs: the database (migrated), the providers chosen by
 * configuration, and background workers. Returns the context and how to stop it.
 */
import type { Config } from './config.ts';
import { type AppContext, type Clock, systemClock } from './context.ts';
import { openDb } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { startPayoutWorker } from './modules/withdrawal/worker.ts';
import { createPaymentsProvider } from './providers/payments/index.ts';
import { createPayoutsProvider } from './providers/payouts/index.ts';
import { createSmsProvider } from './providers/sms/index.ts';

export interface RunningContext extends AppContext {
  stop(): Promise<void>;
}

export async function createContext(
  config: Config,
  options: { clock?: Clock; dataDir?: string; workers?: boolean } = {},
): Promise<RunningContext> {
  const db = await openDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: options.dataDir ?? config.DATA_DIR,
    poolSize: config.DB_POOL_SIZE,
  });
  await migrate(db);
  const clock = options.clock ?? systemClock;
  const ctx: AppContext = {
    config,
    db,
    clock,
    sms: createSmsProvider(config, db, clock),
    payments: createPaymentsProvider(config, db, clock),
    payouts: createPayoutsProvider(config, db, clock),
  };
  // Commands (npm run ops) open the database without the background workers.
  const payoutWorker = options.workers === false ? { stop: async () => {} } : startPayoutWorker(ctx);
  return {
    ...ctx,
    async stop() {
      await payoutWorker.stop();
      ctx.sms.close?.();
      await db.close();
    },
  };
}
