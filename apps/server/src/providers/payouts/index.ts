/**
 * The payouts provider chosen by PAYOUTS_PROVIDER, one per server instance, created (and its options
 * validated) by create-context.ts at boot: a bad setting stops start-up.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { Jobs } from '../../jobs/index.ts';
import type { PayoutsProvider } from './payouts-provider.ts';
import { SandboxPayoutsProvider } from './sandbox.ts';
import { YooKassaPayoutsProvider } from './yookassa.ts';

export function createPayoutsProvider(config: Config, db: Db, clock: Clock, jobs?: Jobs): PayoutsProvider {
  switch (config.PAYOUTS_PROVIDER) {
    case 'sandbox':
      return new SandboxPayoutsProvider(config, db, clock, jobs);
    case 'yookassa':
      return new YooKassaPayoutsProvider(config);
  }
}
