/**
 * The bell's list: stored notifications and money read from the ledger.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export {
  deviceName,
  listNotifications,
  notificationOf,
  notify,
  notifyNewDevice,
  notifyRegistration,
} from './service.ts';

export const routes = modulePlugin('notifications', register);
