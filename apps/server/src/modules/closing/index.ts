/**
 * Closing a wallet: its balance paid out through the one payout path, its links ended, its phone
 * free to register again (docs/decisions/account.md#a-persons-account).
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export const routes = modulePlugin('closing', register);
