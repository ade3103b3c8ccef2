/**
 * Scheduled transfers and their runs.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { listSchedules } from './service.ts';

export const routes = modulePlugin('schedules', register);
