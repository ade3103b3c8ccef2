/**
 * The sandbox's rates: fixed, so tests and demos get the same figures every day (documented in the
 * README): 1 USD = 80 ₽, 1 EUR = 92 ₽, 1 IDR = 0.005 ₽, 1 JPY = 0.52 ₽, 1 GBP = 105 ₽.
 */
import type { RatesProvider, RatesSnapshot } from './rates-provider.ts';

export const SANDBOX_RATES = { USD: '80', EUR: '92', IDR: '0.005', JPY: '0.52', GBP: '105' } as const;

export class SandboxRatesProvider implements RatesProvider {
  readonly id = 'sandbox';
  async fetch(): Promise<RatesSnapshot> {
    return { date: null, rates: { ...SANDBOX_RATES } };
  }
}
