/** Money in and out: top-up, withdrawal, transfers, QR payments, their checks, the freeze and closing. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { PlainText } from '../plain-text.ts';
import { Limits } from './auth.ts';
import { Amount, AmountOut, Code, CurrencyCodeSchema, DateTime, Id, Phone, Pin } from './common.ts';
import { PasskeyConfirmRequest } from './passkeys.ts';

export const Receipt = z.object({
  id: Id,
  kind: z.enum(['topup', 'withdrawal', 'transfer', 'payment', 'exchange']),
  status: z.enum(['pending', 'complete', 'failed']),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  created_at: DateTime,
  description: z.string(),
  counterparty: z.string().nullable(),
  card: z.string().nullable().describe('masked card: first 6 and last 4 digits'),
  failure_reason: z.string().nullable(),
  /** The wallet's fee on top of the amount (an СБП transfer's, when configured); absent when none. */
  fee: AmountOut.optional(),
});

/** How a top-up is paid on the provider's page: by card (the default) or by СБП from one's bank app. */
export const TopUpMethod = z.enum(['card', 'sbp']);
export const TopUpRequest = z.strictObject({
  amount: Amount,
  currency_code: CurrencyCodeSchema,
  method: TopUpMethod.optional(),
});
export const TopUpAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  url: z.string(),
  order: Id,
});
export const TopUpStatusQuery = z.strictObject({ order: Id });
export const TopUpStatusAnswer = z.object({
  status: z.enum(['pending', 'complete', 'failed']),
  order: Id,
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
});

/**
 * A money operation is confirmed with exactly one of: the PIN, or a passkey's answer to a confirm
 * challenge (docs/decisions/money-calls.md#money-confirmed-with-the-pin-or-a-passkey). Neither is a missing
 * PIN; both is an invalid passkey.
 */
export const Confirmation = { pin: Pin.optional(), passkey: PasskeyConfirmRequest.optional() };
export type ConfirmationFields = { pin?: string; passkey?: z.infer<typeof PasskeyConfirmRequest> };
export function confirmedBy<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject({ ...shape, ...Confirmation }).superRefine((body, ctx) => {
    const { pin, passkey } = body as ConfirmationFields;
    if (pin === undefined && passkey === undefined)
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'string',
        path: ['pin'],
        message: 'Invalid input: expected string, received undefined',
      });
    else if (pin !== undefined && passkey !== undefined)
      ctx.addIssue({ code: 'custom', path: ['passkey'], message: 'the PIN or a passkey, not both' });
  });
}

const withdrawalShape = { amount: Amount, pan: z.string().max(32), currency_code: CurrencyCodeSchema };
export const WithdrawalRequest = confirmedBy(withdrawalShape);
export const MoneyAnswer = z.object({ status: z.literal('success'), message: z.string(), receipt: Receipt });

export const RecipientQuery = z.strictObject({ phone: Phone });
export const Recipient = z.object({
  status: z.literal('success'),
  name: z.string().describe("masked: first name and the initial of the last name, such as 'Иван П.'"),
  phone: Phone,
});
const transferShape = { phone: Phone, amount: Amount, currency_code: CurrencyCodeSchema };
export const TransferRequest = confirmedBy(transferShape);
const qrPaymentShape = {
  // A scanner's trailing newline is trimmed; any other control character is refused (plain-text.ts).
  qr: z.string().trim().min(1).max(2000),
  amount: Amount.optional(),
  currency_code: CurrencyCodeSchema,
};
export const QrPaymentRequest = confirmedBy(qrPaymentShape);

// The answers before the PIN: the same requests without the PIN (a withdrawal's card is optional).
export const TransferCheckRequest = z.strictObject(transferShape);
export const WithdrawalCheckRequest = z.strictObject({
  ...withdrawalShape,
  pan: z.string().max(32).optional(),
});
export const QrPaymentCheckRequest = z.strictObject(qrPaymentShape);
export const CheckProblem = z.object({ code: z.string(), message: z.string() });
export const CheckAnswer = z.object({
  /** True when nothing known now stands in the operation's way (a race can still refuse it after the PIN). */
  ok: z.boolean(),
  problems: z.array(CheckProblem),
  limits: Limits,
});

// Self-protection: a person freezes their own wallet, and lifts the freeze with a fresh SMS code and the PIN.
export const FreezeRequest = z.strictObject({});
export const UnfreezeRequest = z.strictObject({ confirm_code: Code, pin: Pin });
/**
 * Closing the wallet (docs/decisions/account.md#a-persons-account): a fresh SMS code, the PIN or a passkey,
 * the card for the roubles left.
 */
export const CloseWalletRequest = confirmedBy({ pan: z.string().max(32).optional(), confirm_code: Code });
export const ClosePreview = z.object({
  accounts: z.array(
    z.object({
      currency_code: CurrencyCodeSchema,
      balance: AmountOut,
      /** payout: paid out to the card given; exchange_first: exchange or spend it first; none: empty. */
      outcome: z.enum(['payout', 'exchange_first', 'none']),
    }),
  ),
  /** Why closing is refused now; empty when it may go ahead. */
  problems: z.array(z.object({ code: z.string(), message: z.string() })),
  active_schedules: z.number().int(),
  pending_requests: z.number().int(),
  needs_card: z.boolean(),
});
export const CloseWalletAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  payout: z
    .object({
      amount: AmountOut,
      currency_code: CurrencyCodeSchema,
      card: z.string(),
      /** The latest the money is expected on the card: past it, operators see the payout as stuck. */
      expected_by: DateTime,
    })
    .nullable(),
});
export const ReportRequest = z.strictObject({ reason: PlainText(500) });
