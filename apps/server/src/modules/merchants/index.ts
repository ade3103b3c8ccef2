/**
 * Merchants: a person's merchant account, its keys, the merchant API and the payer's side
 * (docs/decisions/merchants.md#merchants).
 * The public face of this module: other modules, ops/ and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export type { MerchantRow } from './profile.ts';
export { merchantAccountOfUser } from './profile.ts';

export const routes = modulePlugin('merchants', register);
