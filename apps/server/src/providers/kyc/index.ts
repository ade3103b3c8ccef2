/**
 * The KYC provider chosen by KYC_PROVIDER, one per server instance. It is created and its options
 * validated when the identification module registers its routes, that is at boot: a bad setting
 * stops start-up. 'manual' is review by an operator; a KYC service's adapter (Sumsub, Onfido) is added as another case.
 */
import type { Config } from '../../config.ts';
import type { AppContext, Clock } from '../../context.ts';
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

// Kept beside the context (keyed by its database) so adding the provider touches no shared file.
const providers = new WeakMap<Db, KycProvider>();

/** The instance's KYC provider, created on first use. */
export function kycProvider(ctx: AppContext): KycProvider {
  let provider = providers.get(ctx.db);
  if (!provider) {
    provider = createKycProvider(ctx.config, ctx.db, ctx.clock);
    providers.set(ctx.db, provider);
  }
  return provider;
}

/** Replaces the instance's provider (tests: a provider that fails or answers on demand). */
export function useKycProvider(ctx: AppContext, provider: KycProvider): void {
  providers.set(ctx.db, provider);
}
