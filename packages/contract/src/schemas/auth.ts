/** Signing up and in, the PIN and sessions. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { AmountOut, Code, DateTime, Email, Id, PersonName, Phone, Pin } from './common.ts';

/** The version of the terms a person read and accepted (GET /v2/wallet/terms answers the current one). */
export const TermsVersion = z
  .string()
  .max(32)
  .regex(/^[0-9A-Za-z.-]+$/);
export const RegisterRequest = z.strictObject({
  first_name: PersonName,
  last_name: PersonName,
  phone: Phone,
  email: Email,
  /** Required: a missing one is TERMS_REQUIRED, another than the current TERMS_OUTDATED (clearer than a field error). */
  terms_version: TermsVersion.optional(),
});
export const SendCodeAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  resend_after: z.number().int().describe('seconds until a new code may be requested'),
});
export const PhoneConfirmRequest = z.strictObject({ phone: Phone, confirm_code: Code });
export const TokenAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  auth_token: z.string(),
});
export const SetPinRequest = z.strictObject({ pin_code: Pin });
/** What a code to one's own phone confirms, so its SMS can say it (sign-in when not given). */
export const CodeStep = z.enum(['sign_in', 'unfreeze', 'close_wallet']);
export const SendCodeRequest = z.strictObject({ phone: Phone, purpose: CodeStep.optional() });
export const LoginRequest = z.strictObject({ phone: Phone, confirm_code: Code });

export const IdentificationLevelName = z.enum(['anonymous', 'simplified', 'full']);
export const VerificationStatus = z.enum(['pending', 'in_review', 'aborted', 'complete']);
export const ActiveIdentification = z.object({
  id: z.string(),
  status: VerificationStatus,
  reason: z.string().nullable(),
  target_level: IdentificationLevelName,
  created_at: DateTime,
});
export const Limits = z.object({
  currency_code: z.literal('RUB'),
  balance_max: AmountOut,
  monthly_outgoing_max: AmountOut.nullable(),
  monthly_outgoing_used: AmountOut,
  monthly_outgoing_left: AmountOut.nullable(),
});
export const AuthInfo = z.object({
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  email: z.string(),
  registered_at: DateTime,
  has_pin: z.boolean(),
  identification_level: z.object({ name: IdentificationLevelName, ask_for_next: z.boolean() }),
  active_identification: ActiveIdentification.nullable(),
  is_topup_allowed: z.boolean(),
  is_withdrawal_allowed: z.boolean(),
  is_transfer_allowed: z.boolean(),
  is_exchange_allowed: z
    .boolean()
    .describe("exchange between one's own accounts (not at the anonymous level)"),
  /** The wallet is frozen: every outgoing operation is refused (WALLET_FROZEN); money still comes in. */
  is_frozen: z.boolean(),
  limits: Limits,
  /** The current terms and whether this person accepted them; money calls wait for it (TERMS_NOT_ACCEPTED). */
  terms: z.object({ version: z.string(), accepted: z.boolean() }),
});

export const Session = z.object({
  id: Id,
  created_at: DateTime,
  last_used_at: DateTime,
  user_agent: z.string(),
  current: z.boolean(),
});
export const PinChangeRequest = z.strictObject({ old_pin: Pin, new_pin: Pin });

/**
 * A change of how money is confirmed or where alerts go (a passkey, a push subscription, security
 * alerts switched off) is proved with the PIN or a fresh SMS code to the person's own phone
 * (send_code), never with the session alone (docs/decisions/security-rules.md#hardening-third-round). Exactly
 * one of them.
 */
export const OwnerProof = { pin: Pin.optional(), confirm_code: Code.optional() };
export function ownerProved<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject({ ...shape, ...OwnerProof }).superRefine((body, ctx) => {
    const { pin, confirm_code } = body as { pin?: string; confirm_code?: string };
    if (pin === undefined && confirm_code === undefined)
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'string',
        path: ['pin'],
        message: 'Invalid input: expected string, received undefined',
      });
    else if (pin !== undefined && confirm_code !== undefined)
      ctx.addIssue({ code: 'custom', path: ['confirm_code'], message: 'the PIN or a code, not both' });
  });
}
export const OwnerProofRequest = ownerProved({});
export const PinVerifyRequest = z.strictObject({ pin: Pin });
