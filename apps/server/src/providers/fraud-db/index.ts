/**
 * The fraud database chosen by FRAUD_DB_PROVIDER, one per server instance (create-context.ts).
 */
import type { Config } from '../../config.ts';
import { FileFraudDb } from './file.ts';
import type { FraudDbProvider } from './fraud-db-provider.ts';
import { SandboxFraudDb } from './sandbox.ts';

export function createFraudDbProvider(config: Config): FraudDbProvider {
  switch (config.FRAUD_DB_PROVIDER) {
    case 'sandbox':
      return new SandboxFraudDb();
    case 'file':
      return new FileFraudDb(config.FRAUD_DB_FILE!);
  }
}
