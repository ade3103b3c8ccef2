/**
 * The Faster Payments System (СБП, docs/decisions/sbp.md): sending roubles by phone to an account in any
 * participant bank. Its calls, as calls.ts assembles them into the one table, and their shapes.
 */
import { z } from 'zod';
import type { CallDef } from './calls.ts';
import { PlainText, plainTextCall } from './plain-text.ts';
import {
  Amount,
  AmountOut,
  CheckAnswer,
  confirmedBy,
  MoneyAnswer,
  Phone,
  SbpBank,
  SbpBankId,
} from './schemas.ts';

export { SbpBank, SbpBankId };

/** One transfer's bounds at the system: 1 ₽ to 500,000 ₽. */
export const SBP_MIN_MINOR = 100n;
export const SBP_MAX_MINOR = 50_000_000n;

export const SbpBanksAnswer = z.object({ results: z.array(SbpBank) });

const sbpShape = {
  phone: Phone,
  bank_id: SbpBankId,
  amount: Amount,
  /** To one's own account in another bank: the phone is one's own, and the bank checks the name. */
  own: z.boolean().optional(),
};
export const SbpCheckRequest = z.strictObject(sbpShape);
export const SbpCheckAnswer = CheckAnswer.extend({
  bank_name: z.string().nullable(),
  /** Masked ('Иван П.'), where the provider tells it; null otherwise. */
  recipient_name: z.string().nullable(),
  /** The wallet's fee on top of the amount, taken with it ('0.00': none); the same the transfer holds. */
  fee: AmountOut,
});
export const SbpTransferRequest = confirmedBy({ ...sbpShape, comment: PlainText(140).optional() });

const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const sbpCalls = {
  sbpBanks: def({
    method: 'GET',
    path: '/v2/wallet/sbp/banks',
    access: 'token',
    tag: 'sbp',
    summary: 'The participants of the Faster Payments System (СБП), refreshed daily',
    answer: SbpBanksAnswer,
  }),
  sbpCheck: def({
    method: 'POST',
    path: '/v2/wallet/sbp/check',
    access: 'token',
    tag: 'sbp',
    summary:
      'Whether an СБП transfer can go through, before the PIN: its problems, the limits, the recipient’s masked name; moves nothing',
    body: SbpCheckRequest,
    answer: SbpCheckAnswer,
  }),
  sbpTransfer: def({
    method: 'POST',
    path: '/v2/wallet/sbp/transfer',
    access: 'token',
    tag: 'sbp',
    summary: 'Send roubles by phone to an account in another bank through СБП, confirmed with the PIN',
    body: SbpTransferRequest,
    answer: MoneyAnswer,
    idempotent: true,
  }),
} as const satisfies Record<string, CallDef>;
