/**
 * A rates provider: the roubles one unit of each currency is worth, as its source sets them. The
 * exchange module stores what it answers in the one table of rates (exchange_rates) on a schedule;
 * quotes and the limits read that table, never the provider. The sandbox (fixed rates) is the default;
 * `cbr` reads the Bank of Russia's official daily file.
 */
import type { CurrencyCode } from '@e-wallet/contract';

export interface RatesSnapshot {
  /** The day the source's rates are for (YYYY-MM-DD), or null when it has no such day (the sandbox). */
  date: string | null;
  /** Roubles for one unit of a currency, as a decimal string ("78.5012"); RUB itself is not listed. */
  rates: Partial<Record<CurrencyCode, string>>;
}

/** The source could not be read or did not make sense: the rates already stored stay in force. */
export class RatesUnavailable extends Error {
  constructor(detail: string) {
    super(`rates provider unavailable: ${detail}`);
    this.name = 'RatesUnavailable';
  }
}

export interface RatesProvider {
  /** Stored with the rates it gave (exchange_rates.source). */
  readonly id: string;
  /** Reads the current rates; throws RatesUnavailable. */
  fetch(): Promise<RatesSnapshot>;
}
