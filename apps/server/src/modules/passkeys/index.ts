/**
 * Passkeys (WebAuthn) registered and used to confirm money.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { listPasskeys, loginOptions, passkeyOwner, suspendPasskeys, verifyPasskey } from './service.ts';

export const routes = modulePlugin('passkeys', register);
