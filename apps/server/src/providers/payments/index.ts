/**
 * The payments provider chosen by PAYMENTS_PROVIDER ('sandbox', the default, or 'yookassa'), created
 * once per server instance by create-context.ts; its options are checked there, so a bad setting stops
 * start-up.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { PaymentsProvider } from './payments-provider.ts';
import { SandboxPaymentsProvider } from './sandbox.ts';
import { YooKassaPaymentsProvider, yooKassaOptions } from './yookassa.ts';

export type { PaymentReport, PaymentStatus, PaymentsProvider } from './payments-provider.ts';

export function createPaymentsProvider(config: Config, db: Db, clock: Clock): PaymentsProvider {
  switch (config.PAYMENTS_PROVIDER) {
    case 'sandbox':
      return new SandboxPaymentsProvider(config, db, clock);
    case 'yookassa':
      return new YooKassaPaymentsProvider(yooKassaOptions(config));
  }
}
