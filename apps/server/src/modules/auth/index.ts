/**
 * Registration, sign-in, sessions, the PIN and how a person confirms a money call.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { clearCodeLock, lockPhone, verifyCode } from './codes.ts';
export { limitsOf } from './info.ts';
export { message } from './messages.ts';
export {
  checkPin,
  freshPinProof,
  PIN_LOCK_AFTER,
  PIN_LOCK_MINUTES,
  PIN_REVOKE_AFTER,
  type PinProof,
  type PinSigner,
  passkeyPinProof,
  pinProof,
  provePin,
} from './pin.ts';
export { type ClientMeta, sendCodeForMoney, sendNotice } from './service.ts';
export { type OwnerProof, type ProofKind, proveOwner, securityChanged } from './step-up.ts';

export const routes = modulePlugin('auth', register);
