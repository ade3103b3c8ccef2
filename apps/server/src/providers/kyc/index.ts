/**
 * The KYC provider chosen by KYC_PROVIDER, one per server instance, made with the context
 * (create-context.ts): its options are validated at start, and a bad setting stops start-up. 'manual' is review by an operator; a KYC service's adapter (Sumsub, Onfido) is added as another case.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { KycProvider } from './kyc-provider.ts';
import { ManualKycProvider } from './manual.ts';
import { SandboxKycProvider } from './sandbox.ts';

export function createKycProvider(config: Config, db: Db, clock: Clock): KycProvider {
  switch (config.KYC_PROVIDER) {
    case 'sandbox':
      return new SandboxKycProvider(config, db, clock);
    case 'manual':
      return new ManualKycProvider(config, db, clock);
  }
}
