/**
 * Rates, quotes and the exchange between one's own accounts.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export const routes = modulePlugin('exchange', register);
