/**
 * Transfers by phone to any bank through the Faster Payments System (СБП).
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { sbpDestination } from './service.ts';

export const routes = modulePlugin('sbp', register);
