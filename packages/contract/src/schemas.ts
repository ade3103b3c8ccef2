/**
 * Request and answer shapes of every call (docs/product.md#calls and docs/decisions/api.md#the-api).
 * Requests are strict: an unknown field is an error, never silently ignored.
 */
import { z } from 'zod';
import { ID_PATTERN } from './ids.ts';
import { ACCOUNT_CURRENCIES, CURRENCY_EXPONENTS } from './money.ts';
import { PlainText } from './plain-text.ts';

// ---------- building blocks ----------

/** E.164: a plus, then 8 to 15 digits; the app sends dial code plus digits only. */
export const Phone = z.string().regex(/^\+[1-9]\d{7,14}$/);
export const Email = z.email().max(254);
/** A person's name: plain text (plain-text.ts), letters and a few joiners only. */
export const PersonName = PlainText(100).regex(/^[\p{L}\p{M}][\p{L}\p{M}' .-]*$/u);
export const Code = z.string().regex(/^\d{4}$/);
export const Pin = z.string().regex(/^\d{4}$/);
export const CurrencyCodeSchema = z.enum(
  Object.keys(CURRENCY_EXPONENTS) as [keyof typeof CURRENCY_EXPONENTS],
);
export const AccountCurrencySchema = z.enum(ACCOUNT_CURRENCIES);
/** A decimal string on the wire ("1500.00"); the currency decides how many digits are allowed. */
export const Amount = z.string().min(1).max(32);
/** Amounts in answers: signed decimal strings with the currency's digits. */
export const AmountOut = z.string();
/** An id: a UUID written 8-4-4-4-12 (ids.ts). */
export const Id = z.string().regex(ID_PATTERN);
export const DateTime = z.iso.datetime({ offset: true });
/**
 * The dates a query may name: from 1970 to 2199. Outside it nothing exists to find, and the
 * databases disagree (year 0 and years past 9999 broke one of them), so such a date is a 400.
 */
export const DATE_MIN = '1970-01-01T00:00:00.000Z';
export const DATE_MAX = '2199-12-31T23:59:59.999Z';
const inDateRange = (text: string) => {
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isFinite(time) && time >= Date.parse(DATE_MIN) && time <= Date.parse(DATE_MAX);
};
/** A date-range bound in a query: a date (YYYY-MM-DD) or a date-time, within DATE_MIN..DATE_MAX. */
export const DateBound = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .refine(inDateRange, 'must be between 1970 and 2199');
/**
 * Every date a request names is bounded (docs/decisions/security-rules.md#hardening-third-round): a day, 1970
 * to 2199.
 */
export const DayBound = z.iso.date().refine(inDateRange, 'must be between 1970 and 2199');
/** A date-time a request names, 1970 to 2199. */
export const DateTimeBound = z.iso
  .datetime({ offset: true })
  .refine(inDateRange, 'must be between 1970 and 2199');
/** A birth date: from 1900 to 2199 (the age rules are the identification's). */
export const BirthDate = z.iso
  .date()
  .refine((text) => text >= '1900-01-01' && text <= DATE_MAX.slice(0, 10), 'must be a date after 1900');
export const Cursor = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/);
export const Limit = z.string().regex(/^(?:[1-9]|[1-9]\d|100)$/);

export const Status = z.enum(['success', 'error']);
export const StatusMessage = z.object({ status: z.literal('success'), message: z.string().optional() });
export const ErrorBody = z.object({ status: z.literal('error'), code: z.string(), message: z.string() });
export const Empty = z.strictObject({});

export function page<T extends z.ZodType>(item: T) {
  return z.object({ results: z.array(item), next: z.string().nullable() });
}

// ---------- auth ----------

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

// ---------- passkeys (WebAuthn) ----------

const B64url = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]*$/);
/** Options for the browser's navigator.credentials (WebAuthn's JSON form, made by the server). */
export const PasskeyOptions = z.object({
  status: z.literal('success'),
  challenge_id: Id,
  options: z.record(z.string(), z.unknown()),
});
/** A browser's credential in WebAuthn's JSON form (RegistrationResponseJSON / AuthenticationResponseJSON). */
export const WebAuthnResponse = z.strictObject({
  id: B64url,
  rawId: B64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  response: z.strictObject({
    clientDataJSON: B64url,
    attestationObject: B64url.optional(),
    authenticatorData: B64url.optional(),
    signature: B64url.optional(),
    userHandle: B64url.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: B64url.optional(),
  }),
});
export const PasskeyRegisterRequest = z.strictObject({
  challenge_id: Id,
  response: WebAuthnResponse,
  name: PlainText(64).optional(),
});
export const PasskeyConfirmRequest = z.strictObject({ challenge_id: Id, response: WebAuthnResponse });
/** Sign-in with a discoverable passkey: the answer to a challenge from passkeyLoginOptions. */
export const PasskeyLoginRequest = PasskeyConfirmRequest;
export const Passkey = z.object({
  id: Id,
  name: z.string(),
  created_at: DateTime,
  last_used_at: DateTime.nullable(),
  /** Set by a freeze: the passkey neither signs in nor confirms until the owner keeps it. */
  suspended_at: DateTime.nullable(),
  /** The browser and system that added it ('Chrome, Android'); null for one added before this was kept. */
  device: z.string().nullable(),
});

// ---------- terms and the operator ----------

export const TERMS_DOCUMENT_KINDS = ['terms', 'tariffs', 'memo'] as const;
export const Terms = z.object({
  version: z.string(),
  documents: z.array(z.object({ kind: z.enum(TERMS_DOCUMENT_KINDS), title: z.string(), url: z.string() })),
  /** Who issues the e-money: the legal name, the Bank of Russia licence and the register entry. */
  operator: z.object({ name: z.string(), licence: z.string(), register_url: z.string() }),
});
export const TermsAcceptRequest = z.strictObject({ terms_version: TermsVersion });

// ---------- one's own data ----------

export const MeExportQuery = z.strictObject({ format: z.enum(['json', 'pdf']).optional() });
/**
 * Everything kept about the person (docs/decisions/account.md#a-persons-account): JSON, or a PDF of the same.
 */
export const MeExport = z.record(z.string(), z.unknown());

// ---------- wallet ----------

export const Account = z.object({
  id: Id,
  currency_code: CurrencyCodeSchema,
  balance: AmountOut,
  created_at: DateTime,
});
export const WalletList = z.object({
  results: z.array(z.object({ id: z.string(), accounts: z.array(Account) })),
  next: z.string().nullable(),
});
export const OpenAccountRequest = z.strictObject({ currency_code: AccountCurrencySchema });
export const IdParams = z.strictObject({ id: Id });

/** 'savings': money moved into or out of one's savings goal, apart from spending. */
/**
 * A held operation's states (docs/decisions/antifraud.md#antifraud-and-the-trusted-person); antifraud.ts
 * shows them on a hold.
 */
export const HOLD_STATUSES = [
  'held',
  'awaiting_approval',
  'released',
  'cancelled',
  'expired',
  'declined',
  'refused',
] as const;

export const TransactionType = z.enum([
  'topup',
  'withdrawal',
  'payment',
  'transfer',
  'exchange',
  'savings',
  'other',
]);
export const Transaction = z.object({
  id: Id,
  account_id: Id,
  amount: AmountOut.describe('signed: negative for money out'),
  currency_code: CurrencyCodeSchema,
  description: z.string(),
  created_at: DateTime,
  wallet_transaction_type: TransactionType,
  kind: z.string(),
  status: z.enum(['pending', 'complete', 'failed']),
  /**
   * Money spent: its category (docs/decisions/managing-money.md#managing-money-categories-budgets-goals);
   * null for money in and one's own moves.
   */
  category: z.object({ id: z.string(), name: z.string() }).nullable().optional(),
  /** An exchange is one operation with both amounts: what left and what arrived. */
  exchange: z
    .object({
      from_amount: AmountOut,
      from_currency: CurrencyCodeSchema,
      to_amount: AmountOut,
      to_currency: CurrencyCodeSchema,
    })
    .optional(),
  /**
   * An operation the antifraud check held is one row whose status follows its hold: `id` is the held
   * money's until it is released, then the money that left (docs/decisions/history-and-trust.md).
   */
  hold: z.object({ id: Id, status: z.enum(HOLD_STATUSES) }).optional(),
});
export const TransactionQuery = z.strictObject({
  ordering: z.enum(['-created_at', 'created_at']).optional(),
  account: Id.optional(),
  date_from: DateBound.optional(),
  date_to: DateBound.optional(),
  cursor: Cursor.optional(),
  limit: Limit.optional(),
  /** Only money spent in this category (a fixed category's code or one's own category's id). */
  category: z.string().min(1).max(40).optional(),
});
export const TransactionPage = page(Transaction);

export const StatQuery = z.strictObject({
  account: Id.optional(),
  currency_code: CurrencyCodeSchema.optional(),
  date_from: DateBound.optional(),
  date_to: DateBound.optional(),
  /**
   * 'category': money spent by category
   * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals) instead of money by type.
   */
  group_by: z.enum(['type', 'category']).optional(),
});
export const StatEntry = z.object({
  wallet_transaction_type: TransactionType,
  amount: AmountOut.describe('money in and out of this type together (what the percent is of)'),
  amount_in: AmountOut,
  amount_out: AmountOut,
  percent: z.number(),
  count: z.number().int(),
});
export const StatByType = z.object({
  results: z.array(StatEntry),
  next: z.null(),
  currency_code: CurrencyCodeSchema,
  total: AmountOut.describe('money moved either way; total_in and total_out say which'),
  total_in: AmountOut.describe('money from others; an exchange between own accounts is not counted'),
  total_out: AmountOut.describe('money spent; an exchange between own accounts is not counted'),
});
/** Money spent by category: the amounts sum to `total`, which is the by-type answer's `total_out`. */
export const StatByCategory = z.object({
  group_by: z.literal('category'),
  results: z.array(
    z.object({
      category: z.string(),
      name: z.string(),
      amount: AmountOut,
      percent: z.number(),
      count: z.number().int(),
    }),
  ),
  next: z.null(),
  currency_code: CurrencyCodeSchema,
  total: AmountOut,
});
export const StatAnswer = z.union([StatByType, StatByCategory]);

/** What a notification is about, so tapping it opens that: an operation by its id, or a screen. */
export const NOTIFICATION_SUBJECTS = [
  'operation',
  'holds',
  'approvals',
  'trusted_person',
  'requests',
  'schedules',
  'savings',
  'identification',
  'security',
  'support',
  'wallet',
] as const;
export const NotificationAbout = z.object({
  type: z.enum(NOTIFICATION_SUBJECTS),
  /** The operation's id (as the history's row has it), for type 'operation'. */
  id: Id.optional(),
});
export type NotificationAbout = z.infer<typeof NotificationAbout>;
export const Notification = z.object({
  id: Id,
  created_at: DateTime,
  message: z.string(),
  kind: z.string(),
  is_read: z.boolean(),
  about: NotificationAbout,
});
export const NotificationQuery = z.strictObject({ cursor: Cursor.optional(), limit: Limit.optional() });
export const NotificationPage = z.object({
  results: z.array(Notification),
  next: z.string().nullable(),
  unread: z.number().int(),
});
export const NotificationReadRequest = z.strictObject({ ids: z.array(Id).max(100).optional() });

// ---------- identification ----------

export const UpgradeAnswer = z.object({
  status: z.literal('success'),
  message: z.string().optional(),
  verification_url: z.string(),
  active_identification: ActiveIdentification,
});
export const IdentificationStatusAnswer = z.object({
  status: z.literal('success'),
  identification_level: z.object({ name: IdentificationLevelName, ask_for_next: z.boolean() }),
  active_identification: ActiveIdentification.nullable(),
});

/** The document data a person enters for an operator's review (KYC_PROVIDER=manual). */
export const IdentificationDocuments = z.strictObject({
  application_id: Id,
  document_type: z.enum(['passport', 'inn', 'snils']),
  document_number: z.string().min(1).max(20),
  full_name: PlainText(200),
  birth_date: BirthDate,
});

/** Photos are sent one a call, as base64, before the document data; the server checks their bytes. */
export const PHOTO_MAX_BYTES = 3 * 1024 * 1024;
export const IdentificationPhoto = z.strictObject({
  application_id: Id,
  content_type: z.enum(['image/jpeg', 'image/png', 'image/webp']),
  data: z
    .string()
    .min(8)
    .max(Math.ceil(PHOTO_MAX_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/),
});
export const IdentificationPhotoAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  /** How many photos the application has now. */
  photos: z.number().int(),
});

// ---------- money in and out ----------

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

// ---------- documents ----------

export const DocumentReceiptQuery = z.strictObject({ format: z.enum(['json', 'pdf']).optional() });
export const DocumentReceipt = z.object({
  id: Id,
  kind: z.enum(['topup', 'withdrawal', 'transfer', 'payment', 'refund', 'fee', 'exchange', 'savings']),
  direction: z.enum(['in', 'out']),
  status: z.enum(['pending', 'complete', 'failed']),
  amount: AmountOut.describe('signed: negative for money out'),
  currency_code: CurrencyCodeSchema,
  created_at: DateTime,
  description: z.string(),
  counterparty: z
    .string()
    .nullable()
    .describe('masked: a name with the initial of the last name, a masked card'),
  account: Id,
  fee: AmountOut,
  balance_after: AmountOut.describe('what the account could spend right after the operation'),
  verify_url: z.string().describe('the public page that confirms this receipt; its code is signed'),
});
export const StatementQuery = z.strictObject({
  account: Id,
  date_from: DayBound,
  date_to: DayBound,
  format: z.enum(['csv', 'pdf']),
});
/** A file: text/csv (UTF-8 with BOM) or application/pdf, streamed. */
export const StatementFile = z.string().describe('text/csv or application/pdf');

// ---------- provider callbacks and sandbox ----------

export const PaymentWebhook = z.object({
  event: z.enum(['payment.succeeded', 'payment.canceled']),
  payment_id: z.string().max(100),
  order: Id,
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  occurred_at: DateTimeBound,
});
export const PayoutWebhook = z.object({
  event: z.enum(['payout.succeeded', 'payout.canceled']),
  payout_id: z.string().max(100),
  reference: Id,
  reason: z.string().max(500).nullable(),
  occurred_at: DateTimeBound,
});
export const KycWebhook = z.object({
  event: z.enum(['verification.in_review', 'verification.approved', 'verification.rejected']),
  verification_id: Id,
  reason: z.string().max(500).nullable(),
  sequence: z.number().int().nonnegative(),
  occurred_at: DateTimeBound,
});
export const WebhookAnswer = z.object({ status: z.literal('success') });

// One phone's texts only: an outbox of every phone would hand anyone every user's codes.
export const SmsOutboxQuery = z.strictObject({ phone: Phone });
export const SmsOutbox = z.object({
  results: z.array(z.object({ phone: z.string(), text: z.string(), code: z.string(), created_at: DateTime })),
});

export const VersionFile = z.object({ version: z.string() });
export const Health = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });

// ---------- requests, templates, schedules
// (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers) ----------

export const PaymentRequestStatus = z.enum(['pending', 'paid', 'declined', 'cancelled', 'expired']);
export const PaymentRequestCreate = z
  .strictObject({
    amount: Amount,
    currency_code: CurrencyCodeSchema,
    /** One payer by phone; without it (and without `phones`) the request is paid by whoever opens its link. */
    phone: Phone.optional(),
    /** A split: the amount is shared among these phones, each paying its share. */
    phones: z.array(Phone).min(1).max(20).optional(),
    /** A split that counts the requester too: 1,500 among me and two friends asks each friend 500. */
    include_me: z.boolean().optional(),
    comment: PlainText(140, 0).optional(),
  })
  .refine((body) => !(body.phone && body.phones), { message: 'phone or phones, not both', path: ['phones'] })
  .refine((body) => !body.phones || body.phones.length >= (body.include_me ? 1 : 2), {
    message: 'a split needs two people besides the requester, or one with include_me',
    path: ['phones'],
  })
  .refine((body) => !body.include_me || body.phones, {
    message: 'include_me is for a split',
    path: ['include_me'],
  });
export const PaymentRequestShare = z.object({
  id: Id,
  phone: z.string().nullable(),
  amount: AmountOut,
  url: z.string(),
});
export const PaymentRequestCreated = z.object({
  id: Id,
  status: PaymentRequestStatus,
  url: z.string().describe('<PUBLIC_URL>/pay/r/<token>: whoever may pay it opens it'),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  expires_at: DateTime,
  /** Every share of a split (one element otherwise); `id` and `url` are the first share's. */
  shares: z.array(PaymentRequestShare),
});
export const PaymentRequestView = z.object({
  id: Id,
  direction: z.enum(['incoming', 'outgoing']),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  status: PaymentRequestStatus,
  /** The other party's masked name ('Иван П.'); null for a link request nobody has paid yet. */
  counterparty: z.string().nullable(),
  comment: z.string().nullable(),
  created_at: DateTime,
  expires_at: DateTime,
});
export const PaymentRequestQuery = z.strictObject({
  direction: z.enum(['incoming', 'outgoing']).optional(),
  cursor: Cursor.optional(),
  limit: Limit.optional(),
});
export const PaymentRequestPage = page(PaymentRequestView);
export const PaymentRequestTokenParams = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/),
});
export const PaymentRequestPay = confirmedBy({});

export const TemplateCreate = z.strictObject({
  name: PlainText(60),
  phone: Phone,
  amount: Amount.optional(),
  currency_code: CurrencyCodeSchema,
});
export const Template = z.object({
  id: Id,
  name: z.string(),
  phone: Phone,
  recipient: z.string().describe('masked name of the person the phone belongs to'),
  amount: AmountOut.nullable(),
  currency_code: CurrencyCodeSchema,
  created_at: DateTime,
});
export const TemplatePage = page(Template);
export const TemplateAnswer = z.object({ status: z.literal('success'), template: Template });
export const RecentRecipient = z.object({ phone: Phone, name: z.string(), last_at: DateTime });
export const RecentRecipients = z.object({ results: z.array(RecentRecipient), next: z.null() });
export const RepeatAnswer = z.object({
  status: z.literal('success'),
  phone: Phone,
  name: z.string(),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
});

export const SchedulePeriod = z.enum(['week', 'month']);
/** A transfer to a person by phone, or a regular deposit into one's own goal (`goal_id`): one of the two. */
export const ScheduleCreate = confirmedBy({
  phone: Phone.optional(),
  goal_id: Id.optional().describe("one of the person's open savings goals, in its currency"),
  amount: Amount,
  currency_code: AccountCurrencySchema,
  period: SchedulePeriod,
  first_run_at: DateTimeBound,
  ends_at: DateTimeBound.optional(),
}).superRefine((body, ctx) => {
  if ((body.phone === undefined) === (body.goal_id === undefined))
    ctx.addIssue({ code: 'custom', path: ['goal_id'], params: { error: 'SCHEDULE_TARGET' } });
});
export const ScheduleStatus = z.enum(['active', 'paused', 'ended']);
export const Schedule = z.object({
  id: Id,
  /** The person paid's phone; null for a goal's regular deposit. */
  phone: Phone.nullable(),
  /** The goal a regular deposit goes into; null for a transfer. */
  goal_id: Id.nullable(),
  recipient: z.string().describe("the person's masked name, or the goal's name"),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  period: SchedulePeriod,
  first_run_at: DateTime,
  next_run_at: DateTime.nullable(),
  ends_at: DateTime.nullable(),
  status: ScheduleStatus,
  last_run: z
    .object({ at: DateTime, outcome: z.enum(['paid', 'skipped', 'held']), reason: z.string().nullable() })
    .nullable(),
  created_at: DateTime,
});
export const SchedulePage = page(Schedule);
export const ScheduleAnswer = z.object({ status: z.literal('success'), schedule: Schedule });

// ---------- the live wallet (docs/decisions/live-wallet.md#the-live-wallet) ----------

/** The stream's events, by name: `data` of each is one JSON object. */
export const TransactionEvent = Transaction.extend({
  balance: AmountOut.describe('the account’s balance after this operation'),
});
export const BalanceEvent = z.object({
  account_id: Id,
  currency_code: CurrencyCodeSchema,
  balance: AmountOut,
});
export const NotificationEvent = z.object({ notification: Notification, unread: z.number().int() });
export const SessionEvent = z.object({ reason: z.enum(['revoked', 'expired']) });
export const ReadyEvent = z.object({ resumed: z.boolean() });
/** A page's first stream asks for what changed since it asked for its data (at most a minute back). */
export const EventStreamQuery = z.strictObject({
  replay_ms: z
    .string()
    .regex(/^(?:\d{1,4}|[1-5]\d{4}|60000)$/)
    .optional(),
});
export const EventStreamAnswer = z
  .string()
  .describe(
    'text/event-stream: events transaction, balance, notification, session, ready; a comment line as heartbeat',
  );

export const PushKeyAnswer = z.object({ public_key: z.string() });
const Base64Url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/);
/** A new device for alerts: proved with the PIN or a fresh SMS code, as every change of where alerts go. */
export const PushSubscriptionRequest = ownerProved({
  endpoint: z.string().min(1).max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: Base64Url.max(200), auth: Base64Url.max(100) }),
});
export const PushUnsubscribeRequest = z.strictObject({ endpoint: z.string().min(1).max(2000) });
export const NotificationSettings = z.object({
  push_money_in: z.boolean(),
  push_money_out: z.literal(true).describe('money out is always told'),
  push_security: z.boolean(),
  push_subscribed: z.boolean().describe('this person has at least one push subscription'),
});
/** Switching security alerts off needs the PIN or a fresh SMS code (the server asks: FIELD_REQUIRED). */
export const NotificationSettingsRequest = z.strictObject({
  push_money_in: z.boolean().optional(),
  push_security: z.boolean().optional(),
  ...OwnerProof,
});

// ---------- exchange between one's own accounts ----------

export const ExchangeRate = z.object({
  from_currency: CurrencyCodeSchema,
  to_currency: CurrencyCodeSchema,
  rate: z.string().describe('units of to_currency for one unit of from_currency, before the fee'),
  updated_at: DateTime.describe('when the rates were read from their source'),
});
export const ExchangeRatesAnswer = z.object({
  results: z.array(ExchangeRate),
  next: z.null(),
  source: z.string().describe('the rates provider: sandbox (fixed rates) or cbr (the Bank of Russia)'),
  spread_percent: z.string().describe('the wallet’s fee, a percent of the amount exchanged'),
});
/** Either the amount to give or the amount to receive (then the amount to give is worked out). */
export const ExchangeQuoteRequest = z
  .strictObject({
    from_currency: AccountCurrencySchema,
    to_currency: AccountCurrencySchema,
    amount: Amount.optional().describe('in from_currency, the fee included'),
    receive_amount: Amount.optional().describe('in to_currency, instead of amount'),
  })
  .refine((body) => (body.amount === undefined) !== (body.receive_amount === undefined), {
    message: 'give amount or receive_amount',
    path: ['amount'],
  });
export const ExchangeQuote = z.object({
  status: z.literal('success'),
  quote_id: Id,
  from_currency: AccountCurrencySchema,
  to_currency: AccountCurrencySchema,
  amount: AmountOut.describe('what leaves the from-account, the fee included'),
  receive_amount: AmountOut.describe('what arrives in the to-account'),
  rate: z.string(),
  fee: AmountOut.describe('in from_currency'),
  spread_percent: z.string(),
  rates_updated_at: DateTime,
  expires_at: DateTime,
});
/** Confirmed with the PIN or a passkey, as every money call. */
export const ExchangeRequest = confirmedBy({ quote_id: Id });
export const ExchangeReceipt = z.object({
  id: Id,
  kind: z.literal('exchange'),
  status: z.literal('complete'),
  from_currency: AccountCurrencySchema,
  to_currency: AccountCurrencySchema,
  amount: AmountOut,
  receive_amount: AmountOut,
  rate: z.string(),
  fee: AmountOut,
  created_at: DateTime,
  description: z.string(),
});
export const ExchangeAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  receipt: ExchangeReceipt,
});
