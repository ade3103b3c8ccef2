/**
 * The activities a merchant may name (MCC, ISO 18245): a short list of what small sellers do. Which
 * category a payer's history files each under is decided where every MCC's is, in the database's
 * categories (docs/decisions/merchants.md#merchants). Without zod, for the app's pages.
 */
export const MERCHANT_MCCS = [
  '5411',
  '5462',
  '5812',
  '5814',
  '5691',
  '5945',
  '5999',
  '7230',
  '8299',
  '7299',
] as const;
export type MerchantMcc = (typeof MERCHANT_MCCS)[number];
