/**
 * Transfers between wallet users by phone.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export {
  checkPaymentToPerson,
  countLookup,
  findRecipient,
  payUser,
  type Recipient,
  transferReceipt,
} from './service.ts';

export const routes = modulePlugin('transfer', register);
