/**
 * How a person confirms a money operation: with their PIN, or with one of their passkeys answering
 * a confirm challenge (docs/decisions/money-calls.md#money-confirmed-with-the-pin-or-a-passkey). Either way
 * the payment's statement gets a PIN proof, so its one check (a matching proof, no wrong PINs counted, no
 * lock) decides both: the
 * PIN's HMAC, or, once the passkey is verified, the stored hash itself.
 */
import type { ConfirmationFields } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { freshPinProof, type PinProof, passkeyPinProof, pinProof, provePin } from '../auth/index.ts';
import { verifyPasskey } from '../passkeys/index.ts';

/** The PIN or a passkey's answer, as the request carries them (the contract allows exactly one). */
export type Confirmation = ConfirmationFields;

/**
 * The proofs of one confirmation: `first` (which may come from a hint and prove nothing alone), then
 * `again` each time the statement did not accept one; `check` decides it where no statement follows.
 */
export interface Confirmer {
  first(): Promise<PinProof>;
  again(): Promise<PinProof>;
  check(): Promise<PinProof>;
}

export function confirmer(ctx: AppContext, userId: string, confirmation: Confirmation): Confirmer {
  const { passkey, pin } = confirmation;
  if (passkey) {
    // The passkey's challenge is used once: verified on the first proof, never again for this call.
    let verified: Promise<void> | undefined;
    const prove = async () => {
      verified ??= verifyPasskey(ctx, userId, passkey);
      await verified;
      return passkeyPinProof(ctx, userId);
    };
    return { first: prove, again: prove, check: prove };
  }
  if (pin === undefined) throw new Error('confirmer: a request with neither the PIN nor a passkey');
  return {
    first: () => pinProof(ctx, userId, pin),
    again: () => freshPinProof(ctx, userId, pin),
    check: () => provePin(ctx, userId, pin),
  };
}
