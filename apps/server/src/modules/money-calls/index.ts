/**
 * Money calls: the one pipeline every call that moves money passes (pipeline.ts), the one store of
 * Idempotency-Keys (idempotency.ts), the one map from a door's refusal to the contract's error
 * (refusals.ts), and the answers before the PIN, asked of the same door (checks.ts).
 */
export { type CheckAnswer, checkAnswer, paymentProblemsOf } from './checks.ts';
export { type Confirmation, confirmer } from './confirmation.ts';
export {
  type IdempotencyScope,
  keyedCall,
  repeatedAnswer,
  requestHash,
  type StoredAnswer,
} from './idempotency.ts';
export {
  type Before,
  type Confirmer,
  checkConfirmation,
  type KeptAnswer,
  type MoneyCall,
  type MoneyCallResult,
  moneyCall,
  runMoneyCall,
} from './pipeline.ts';
export { refusalError } from './refusals.ts';
export { onRelease, type ReleaseWork, releaseWorkOf } from './release.ts';
