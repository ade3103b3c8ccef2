/**
 * The rates provider chosen by RATES_PROVIDER, one per server instance (create-context.ts).
 */
import type { Config } from '../../config.ts';
import { CbrRatesProvider } from './cbr.ts';
import type { RatesProvider } from './rates-provider.ts';
import { SandboxRatesProvider } from './sandbox.ts';

export function createRatesProvider(config: Config): RatesProvider {
  switch (config.RATES_PROVIDER) {
    case 'sandbox':
      return new SandboxRatesProvider();
    case 'cbr':
      return new CbrRatesProvider(config.CBR_URL);
  }
}
