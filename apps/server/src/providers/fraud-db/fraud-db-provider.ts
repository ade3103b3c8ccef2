/**
 * The fraud database: is this recipient listed in the Bank of Russia's database of operations made
 * without the client's consent (docs/decisions/antifraud.md#antifraud-and-the-trusted-person). `sandbox`
 * lists the README's test phone and card; `file` reads the regulator's export from FRAUD_DB_FILE and reads it
 * again when it changes.
 * The antifraud module asks it for every outgoing money call, whatever the amount.
 */

/** A recipient as the money call names it: a wallet user's phone, a card, a bank account. */
export interface FraudRecipient {
  phone?: string | null;
  /** The card's 16 digits, in memory only. */
  card?: string | null;
  /** A bank account's 20 digits (a GOST QR payment's PersonalAcc). */
  account?: string | null;
}

export type FraudMatch = 'phone' | 'card' | 'account';

export interface FraudDbProvider {
  readonly id: string;
  /** Which of the recipient's identifiers is listed, or null. */
  listed(recipient: FraudRecipient): Promise<FraudMatch | null>;
}

/** The lists as sets of normalised identifiers: phones in E.164, cards and accounts as digits. */
export interface FraudLists {
  phones: ReadonlySet<string>;
  cards: ReadonlySet<string>;
  accounts: ReadonlySet<string>;
}

export function matchIn(lists: FraudLists, recipient: FraudRecipient): FraudMatch | null {
  if (recipient.phone && lists.phones.has(recipient.phone)) return 'phone';
  if (recipient.card && lists.cards.has(recipient.card)) return 'card';
  if (recipient.account && lists.accounts.has(recipient.account)) return 'account';
  return null;
}
