/**
 * Antifraud by the Bank of Russia's rules and the trusted person
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): the one check every outgoing money call
 * passes in the money-call pipeline (assess.ts), the held operations' rows (store.ts), the trusted person's
 * settings (trusted.ts) and their routes.
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export {
  type AntifraudCall,
  type AntifraudPayee,
  amountFloor,
  assessCall,
  cardKey,
  type HoldVerdict,
  payeeKey,
  SIGNS,
  signsEnabled,
} from './assess.ts';
export {
  APPROVAL_HOURS,
  doorOf,
  HOLD_COLUMNS,
  HOLD_HOURS,
  type HoldRow,
  type HoldStatus,
  heldAnswerOf,
  holdParams,
  holdWaitsFor,
  type NewHold,
  recordHold,
  tellHeld,
  trustedNamed,
} from './store.ts';
export { REASON_TEXTS, reasonList, reasonSentence, reasonText } from './texts.ts';
export {
  applyDueTrustedChanges,
  endOwnTrustedPerson,
  endTrustedRoles,
  trustedPersonInForce,
  trustedPersonOf,
} from './trusted.ts';
export { fraudListChanging } from './watch.ts';

export const routes = modulePlugin('antifraud', register);
