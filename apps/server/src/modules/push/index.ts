/**
 * Web Push subscriptions and delivery.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { suspendSubscriptions } from './service.ts';

export const routes = modulePlugin('push', register);
