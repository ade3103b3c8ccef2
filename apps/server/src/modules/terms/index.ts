/**
 * The terms, tariffs and the Bank of Russia's memo a person accepts, versioned, and the operator's
 * identity (docs/decisions/account.md#a-persons-account).
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export {
  checkTermsVersion,
  hasAcceptedTerms,
  recordAcceptance,
  requireAcceptedTerms,
  TERMS_VERSION,
} from './service.ts';

export const routes = modulePlugin('terms', register);
