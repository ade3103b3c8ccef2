/**
 * Identification levels through the KYC provider or manual review.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { reencodePhoto } from './photo.ts';
export { activeIdentification, refreshLatest } from './service.ts';

export const routes = modulePlugin('identification', register);
