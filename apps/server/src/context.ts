/**
 * What every module gets: the configuration, the database, the providers and the clock.
 * Built once per server instance (tests build their own).
 */
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Jobs } from './jobs/index.ts';
import type { Metrics } from './metrics.ts';
import type { FraudDbProvider } from './providers/fraud-db/fraud-db-provider.ts';
import type { KycProvider } from './providers/kyc/kyc-provider.ts';
import type { PaymentsProvider } from './providers/payments/payments-provider.ts';
import type { PayoutsProvider } from './providers/payouts/payouts-provider.ts';
import type { RatesProvider } from './providers/rates/rates-provider.ts';
import type { SmsProvider } from './providers/sms/sms-provider.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  sms: SmsProvider;
  payments: PaymentsProvider;
  payouts: PayoutsProvider;
  kyc: KycProvider;
  /** Exchange rates' source; modules/exchange stores what it answers in exchange_rates. */
  rates: RatesProvider;
  /** The fraud database (modules/antifraud); contexts built by hand may have none: FRAUD_DB_PROVIDER's. */
  fraudDb?: FraudDbProvider;
  /** The job system of every background work (docs/decisions/jobs.md#one-job-system). */
  jobs: Jobs;
  /** Operators' metrics (create-context.ts makes them; contexts built by hand may have none). */
  metrics?: Metrics;
}
