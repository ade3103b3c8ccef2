/**
 * Templates and recent recipients.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { listTemplates } from './service.ts';

export const routes = modulePlugin('templates', register);
