/**
 * What the sandbox pages share.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { escapeHtml, sandboxPage, sendHtml } from './page.ts';

export const routes = modulePlugin('sandbox-pages', register);
