/**
 * Receipts, statements (PDF and CSV) and the public verify page.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { type PdfSection, sectionsPdf } from './pdf.ts';
export { printedTime } from './texts.ts';

export const routes = modulePlugin('documents', register);
