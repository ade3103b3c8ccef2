/**
 * A wallet frozen by its owner or an operator, and lifted.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { operatorFreeze, operatorUnfreeze } from './service.ts';

export const routes = modulePlugin('freeze', register);
