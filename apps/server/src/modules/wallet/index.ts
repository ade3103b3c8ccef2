/**
 * Accounts, history and statistics.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export {
  entryTransactionView,
  KIND_TEXTS,
  ownAccount,
  rangeOf,
  transactionOfEntry,
  transactionsOf,
  walletOf,
} from './service.ts';

export const routes = modulePlugin('wallet', register);
