/**
 * One's own data: everything kept about a person, as JSON or a PDF, without secrets
 * (docs/decisions/account.md#a-persons-account).
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export const routes = modulePlugin('my-data', register);
