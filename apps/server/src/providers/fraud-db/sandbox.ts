/**
 * The sandbox fraud database: the test recipients the README documents, so a demo and the tests can
 * see a refusal. Production refuses it (config.ts).
 */
import { type FraudDbProvider, type FraudRecipient, matchIn } from './fraud-db-provider.ts';

export const SANDBOX_FRAUD_PHONE = '+79990000666';
export const SANDBOX_FRAUD_CARD = '4000000000000663';

const LISTS = {
  phones: new Set([SANDBOX_FRAUD_PHONE]),
  cards: new Set([SANDBOX_FRAUD_CARD]),
  accounts: new Set<string>(),
};

export class SandboxFraudDb implements FraudDbProvider {
  readonly id = 'sandbox';
  async listed(recipient: FraudRecipient) {
    return matchIn(LISTS, recipient);
  }
}
