/**
 * Payment requests by phone, by link and split.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { listRequests } from './service.ts';

export const routes = modulePlugin('requests', register);
