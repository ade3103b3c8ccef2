/** Merchants' codes without zod, for the app's pages (merchants.ts has the calls). */
/**
 * The activities a merchant may name (MCC): a short list of what small sellers do, each with the
 * category a payer's history files it under (docs/decisions/merchants.md#merchants).
 */
export const MERCHANT_MCCS = {
  '5411': 'groceries',
  '5462': 'groceries',
  '5812': 'cafes',
  '5814': 'cafes',
  '5691': 'shopping',
  '5945': 'shopping',
  '5999': 'shopping',
  '7230': 'health',
  '8299': 'education',
  '7299': 'services',
} as const;
export type MerchantMcc = keyof typeof MERCHANT_MCCS;
