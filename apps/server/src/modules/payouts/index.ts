/**
 * Money leaving the wallet through the payouts provider, and its worker.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export {
  PAYOUT_STUCK_AFTER_MS,
  payOut,
  payoutReceipt,
  payoutReceiptOf,
  sbpRepeatOf,
  settlePayout,
  shownDestinationSql,
} from './service.ts';

export const routes = modulePlugin('payouts', register);
