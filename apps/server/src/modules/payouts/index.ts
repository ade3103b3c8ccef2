/**
 * Money leaving the wallet through the payouts provider, and its worker.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { settlePayout } from './provider.ts';
export { payoutReceipt, payoutReceiptOf, sbpRepeatOf, shownDestinationSql } from './receipts.ts';
export { payOut } from './service.ts';
export { PAYOUT_STUCK_AFTER_MS } from './store.ts';

export const routes = modulePlugin('payouts', register);
