/**
 * The sandbox identification provider's hosted page.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export const routes = modulePlugin('sandbox-kyc', register, ['@fastify/formbody', 'e-wallet-sandbox-pages']);
