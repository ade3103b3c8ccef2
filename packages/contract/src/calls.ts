/**
 * The call table: every call of the API with its method, path, who may make it, and its schemas.
 * The server registers its routes from this table, the app's typed client calls through it,
 * and the OpenAPI document at /docs is generated from it.
 */
import type { z } from 'zod';
import * as s from './schemas.ts';

export type Method = 'GET' | 'POST' | 'DELETE';

export interface CallDef {
  method: Method;
  path: string;
  /** 'token': needs `Authorization: Token <token>`; 'public': anyone; 'provider': a signed provider callback. */
  access: 'token' | 'public' | 'provider';
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  answer: z.ZodType;
  /** Money-moving calls take an Idempotency-Key header; a repeat returns the first answer. */
  idempotent?: boolean;
  /** Bytes a request body may have when more than the server's default (a photo upload). */
  bodyLimit?: number;
}

const def = <T extends CallDef>(call: T) => call;

export const calls = {
  // auth (docs/product.md section 7)
  register: def({
    method: 'POST',
    path: '/v2/wallet/auth/register',
    access: 'public',
    tag: 'auth',
    summary: 'Start registration: keeps the person’s data and sends an SMS code to the phone',
    body: s.RegisterRequest,
    answer: s.SendCodeAnswer,
  }),
  registerConfirm: def({
    method: 'POST',
    path: '/v2/wallet/auth/register/phone/confirm',
    access: 'public',
    tag: 'auth',
    summary: 'Confirm the phone with the SMS code: creates the user and answers an auth token',
    body: s.PhoneConfirmRequest,
    answer: s.TokenAnswer,
  }),
  setPin: def({
    method: 'POST',
    path: '/v2/wallet/auth/register/set/pin',
    access: 'token',
    tag: 'auth',
    summary: 'Set the four-digit PIN once, right after registration',
    body: s.SetPinRequest,
    answer: s.StatusMessage,
  }),
  sendCode: def({
    method: 'POST',
    path: '/v2/wallet/auth/send_code',
    access: 'public',
    tag: 'auth',
    summary: 'Send a new SMS code: to sign in, or again during registration',
    body: s.SendCodeRequest,
    answer: s.SendCodeAnswer,
  }),
  login: def({
    method: 'POST',
    path: '/v2/wallet/auth/login',
    access: 'public',
    tag: 'auth',
    summary: 'Sign in with phone and SMS code',
    body: s.LoginRequest,
    answer: s.TokenAnswer,
  }),
  authInfo: def({
    method: 'GET',
    path: '/v2/wallet/auth/info',
    access: 'token',
    tag: 'auth',
    summary: 'The signed-in user, identification level and permissions',
    answer: s.AuthInfo,
  }),
  logout: def({
    method: 'POST',
    path: '/v2/wallet/auth/logout',
    access: 'token',
    tag: 'auth',
    summary: 'Sign out: revokes the token of this request',
    answer: s.StatusMessage,
  }),
  sessions: def({
    method: 'GET',
    path: '/v2/wallet/auth/sessions',
    access: 'token',
    tag: 'auth',
    summary: 'Active sessions of the user',
    answer: s.page(s.Session),
  }),
  endOtherSessions: def({
    method: 'DELETE',
    path: '/v2/wallet/auth/sessions',
    access: 'token',
    tag: 'auth',
    summary: 'Sign out every other device',
    answer: s.StatusMessage,
  }),
  endSession: def({
    method: 'DELETE',
    path: '/v2/wallet/auth/sessions/:id',
    access: 'token',
    tag: 'auth',
    summary: 'Sign out one session',
    params: s.IdParams,
    answer: s.StatusMessage,
  }),
  passkeys: def({
    method: 'GET',
    path: '/v2/wallet/auth/passkeys',
    access: 'token',
    tag: 'auth',
    summary: "The user's passkeys (a second way to confirm sign-in beside the PIN)",
    answer: s.page(s.Passkey),
  }),
  passkeyRegisterOptions: def({
    method: 'POST',
    path: '/v2/wallet/auth/passkeys/register/options',
    access: 'token',
    tag: 'auth',
    summary: 'WebAuthn options to create a passkey (navigator.credentials.create)',
    answer: s.PasskeyOptions,
  }),
  passkeyRegister: def({
    method: 'POST',
    path: '/v2/wallet/auth/passkeys/register',
    access: 'token',
    tag: 'auth',
    summary: 'Keeps the passkey the browser created for the given challenge',
    body: s.PasskeyRegisterRequest,
    answer: s.StatusMessage,
  }),
  deletePasskey: def({
    method: 'DELETE',
    path: '/v2/wallet/auth/passkeys/:id',
    access: 'token',
    tag: 'auth',
    summary: 'Removes one of the user’s passkeys',
    params: s.IdParams,
    answer: s.StatusMessage,
  }),
  passkeyConfirmOptions: def({
    method: 'POST',
    path: '/v2/wallet/auth/passkeys/confirm/options',
    access: 'token',
    tag: 'auth',
    summary: 'WebAuthn options to confirm the signed-in person with one of their passkeys',
    answer: s.PasskeyOptions,
  }),
  passkeyConfirm: def({
    method: 'POST',
    path: '/v2/wallet/auth/passkeys/confirm',
    access: 'token',
    tag: 'auth',
    summary: 'Confirms the signed-in person with a passkey, as the PIN does (the app lock)',
    body: s.PasskeyConfirmRequest,
    answer: s.StatusMessage,
  }),
  changePin: def({
    method: 'POST',
    path: '/v2/wallet/auth/pin/change',
    access: 'token',
    tag: 'auth',
    summary: 'Change the PIN, confirming with the old one',
    body: s.PinChangeRequest,
    answer: s.StatusMessage,
  }),
  verifyPin: def({
    method: 'POST',
    path: '/v2/wallet/auth/pin/verify',
    access: 'token',
    tag: 'auth',
    summary: 'Check the PIN to unlock the app after inactivity',
    body: s.PinVerifyRequest,
    answer: s.StatusMessage,
  }),

  // wallet
  wallet: def({
    method: 'GET',
    path: '/v2/wallet',
    access: 'token',
    tag: 'wallet',
    summary: 'The wallet with its accounts (results[0].accounts)',
    answer: s.WalletList,
  }),
  walletList: def({
    method: 'GET',
    path: '/v2/wallet/',
    access: 'token',
    tag: 'wallet',
    summary: 'The wallet list (same answer as /v2/wallet)',
    answer: s.WalletList,
  }),
  openAccount: def({
    method: 'POST',
    path: '/v2/wallet/account',
    access: 'token',
    tag: 'wallet',
    summary: 'Open an account in RUB, USD, EUR or IDR (one per currency)',
    body: s.OpenAccountRequest,
    answer: s.Account,
  }),
  account: def({
    method: 'GET',
    path: '/v2/wallet/account/:id',
    access: 'token',
    tag: 'wallet',
    summary: 'One account of the user',
    params: s.IdParams,
    answer: s.Account,
  }),
  transactions: def({
    method: 'GET',
    path: '/v2/wallet/transaction',
    access: 'token',
    tag: 'wallet',
    summary: 'Transactions, newest first by default, with cursor pagination and filters',
    query: s.TransactionQuery,
    answer: s.TransactionPage,
  }),
  stat: def({
    method: 'GET',
    path: '/v2/wallet/stat',
    access: 'token',
    tag: 'wallet',
    summary: 'Spending and income statistics by transaction type over a date range',
    query: s.StatQuery,
    answer: s.StatAnswer,
  }),
  notifications: def({
    method: 'GET',
    path: '/v2/wallet/user/notification',
    access: 'token',
    tag: 'notifications',
    summary: 'Notifications, newest first',
    query: s.NotificationQuery,
    answer: s.NotificationPage,
  }),
  readNotifications: def({
    method: 'POST',
    path: '/v2/wallet/user/notification/read',
    access: 'token',
    tag: 'notifications',
    summary: 'Mark the given notifications (or all) as read',
    body: s.NotificationReadRequest,
    answer: s.StatusMessage,
  }),

  // identification
  upgradeIdentification: def({
    method: 'POST',
    path: '/v2/wallet/identification-level/upgrade',
    access: 'token',
    tag: 'identification',
    summary: 'Start a verification for the next level; answers verification_url',
    answer: s.UpgradeAnswer,
  }),
  identificationStatus: def({
    method: 'POST',
    path: '/v2/wallet/identification-level/status',
    access: 'token',
    tag: 'identification',
    summary: 'Refresh and answer the status of the active verification',
    answer: s.IdentificationStatusAnswer,
  }),
  submitIdentificationDocuments: def({
    method: 'POST',
    path: '/v2/wallet/identification-level/documents',
    access: 'token',
    tag: 'identification',
    summary: "Send the documents of an operator-reviewed verification (the verification_url's page)",
    body: s.IdentificationDocuments,
    answer: s.IdentificationStatusAnswer,
  }),
  uploadIdentificationPhoto: def({
    method: 'POST',
    path: '/v2/wallet/identification-level/documents/photo',
    access: 'token',
    tag: 'identification',
    summary:
      'Attach a photo of the document (JPEG, PNG or WebP, up to 3 MB, base64) to an operator-reviewed application before its data is sent; at most 3',
    body: s.IdentificationPhoto,
    answer: s.IdentificationPhotoAnswer,
    bodyLimit: 4_300_000,
  }),

  // money in and out
  topUp: def({
    method: 'POST',
    path: '/v2/wallet/top-up',
    access: 'token',
    tag: 'top-up',
    summary: 'Create a top-up order with the payments provider; answers the payment page url',
    body: s.TopUpRequest,
    answer: s.TopUpAnswer,
    idempotent: true,
  }),
  topUpStatus: def({
    method: 'GET',
    path: '/v2/wallet/top-up/status',
    access: 'token',
    tag: 'top-up',
    summary: 'Status of a top-up order',
    query: s.TopUpStatusQuery,
    answer: s.TopUpStatusAnswer,
  }),
  withdrawal: def({
    method: 'POST',
    path: '/v2/wallet/withdrawal',
    access: 'token',
    tag: 'withdrawal',
    summary: 'Withdraw to a bank card, confirmed with the PIN',
    body: s.WithdrawalRequest,
    answer: s.MoneyAnswer,
    idempotent: true,
  }),
  withdrawalReceipt: def({
    method: 'GET',
    path: '/v2/wallet/withdrawal/:id',
    access: 'token',
    tag: 'withdrawal',
    summary: 'A withdrawal and its payout status',
    params: s.IdParams,
    answer: s.Receipt,
  }),
  recipient: def({
    method: 'GET',
    path: '/v2/wallet/transfer/recipient',
    access: 'token',
    tag: 'transfer',
    summary: 'Find a wallet user by phone; answers only a masked name',
    query: s.RecipientQuery,
    answer: s.Recipient,
  }),
  transfer: def({
    method: 'POST',
    path: '/v2/wallet/transfer',
    access: 'token',
    tag: 'transfer',
    summary: 'Send money to another wallet user, confirmed with the PIN',
    body: s.TransferRequest,
    answer: s.MoneyAnswer,
    idempotent: true,
  }),
  transferCheck: def({
    method: 'POST',
    path: '/v2/wallet/transfer/check',
    access: 'token',
    tag: 'transfer',
    summary: 'Whether a transfer can go through, before the PIN: its problems and the limits; moves nothing',
    body: s.TransferCheckRequest,
    answer: s.CheckAnswer,
  }),
  withdrawalCheck: def({
    method: 'POST',
    path: '/v2/wallet/withdrawal/check',
    access: 'token',
    tag: 'withdrawal',
    summary:
      'Whether a withdrawal can go through, before the PIN: its problems and the limits; moves nothing',
    body: s.WithdrawalCheckRequest,
    answer: s.CheckAnswer,
  }),
  qrPaymentCheck: def({
    method: 'POST',
    path: '/v2/wallet/payment/qr/check',
    access: 'token',
    tag: 'payment',
    summary:
      'Whether a QR payment can go through, before the PIN: its problems and the limits; moves nothing',
    body: s.QrPaymentCheckRequest,
    answer: s.CheckAnswer,
  }),
  exchangeRates: def({
    method: 'GET',
    path: '/v2/wallet/exchange/rates',
    access: 'token',
    tag: 'exchange',
    summary: 'Exchange rates between the account currencies, with when they were read',
    answer: s.ExchangeRatesAnswer,
  }),
  exchangeQuote: def({
    method: 'POST',
    path: '/v2/wallet/exchange/quote',
    access: 'token',
    tag: 'exchange',
    summary: 'A quote for exchanging between one’s own accounts: rate, fee, what arrives; holds 30 seconds',
    body: s.ExchangeQuoteRequest,
    answer: s.ExchangeQuote,
  }),
  exchange: def({
    method: 'POST',
    path: '/v2/wallet/exchange',
    access: 'token',
    tag: 'exchange',
    summary:
      'Exchange at a quote between one’s own accounts, confirmed with the PIN; opens the to-account if missing',
    body: s.ExchangeRequest,
    answer: s.ExchangeAnswer,
    idempotent: true,
  }),
  freeze: def({
    method: 'POST',
    path: '/v2/wallet/freeze',
    access: 'token',
    tag: 'security',
    summary: 'Freeze the wallet: every outgoing operation is refused, every other session ends',
    body: s.FreezeRequest,
    answer: s.StatusMessage,
  }),
  unfreeze: def({
    method: 'POST',
    path: '/v2/wallet/unfreeze',
    access: 'token',
    tag: 'security',
    summary: 'Lift the freeze with a fresh SMS code (send_code to one’s own phone) and the PIN',
    body: s.UnfreezeRequest,
    answer: s.StatusMessage,
  }),
  transactionReport: def({
    method: 'POST',
    path: '/v2/wallet/transaction/:id/report',
    access: 'token',
    tag: 'security',
    summary: '‘Это не я’: report an operation as not one’s own; freezes the wallet and tells the operators',
    params: s.IdParams,
    body: s.ReportRequest,
    answer: s.StatusMessage,
  }),
  qrPayment: def({
    method: 'POST',
    path: '/v2/wallet/payment/qr',
    access: 'token',
    tag: 'payment',
    summary: 'Pay a scanned QR code (own receive QR or GOST R 56042-2014), confirmed with the PIN',
    body: s.QrPaymentRequest,
    answer: s.MoneyAnswer,
    idempotent: true,
  }),

  // documents
  documentReceipt: def({
    method: 'GET',
    path: '/v2/wallet/transaction/:id/receipt',
    access: 'token',
    tag: 'documents',
    summary:
      'The receipt of one operation (an id from the history or a money call); ?format=pdf answers it as a PDF',
    params: s.IdParams,
    query: s.DocumentReceiptQuery,
    answer: s.DocumentReceipt,
  }),
  statement: def({
    method: 'GET',
    path: '/v2/wallet/statement',
    access: 'token',
    tag: 'documents',
    summary:
      'A statement of one account over a period: opening balance, every operation, totals, closing balance (CSV or PDF, streamed)',
    query: s.StatementQuery,
    answer: s.StatementFile,
  }),

  // provider callbacks (signed)
  paymentsWebhook: def({
    method: 'POST',
    path: '/v2/wallet/webhooks/payments',
    access: 'provider',
    tag: 'webhooks',
    summary: 'Payments provider notification (signed)',
    body: s.PaymentWebhook,
    answer: s.WebhookAnswer,
  }),
  payoutsWebhook: def({
    method: 'POST',
    path: '/v2/wallet/webhooks/payouts',
    access: 'provider',
    tag: 'webhooks',
    summary: 'Payouts provider notification (signed)',
    body: s.PayoutWebhook,
    answer: s.WebhookAnswer,
  }),
  kycWebhook: def({
    method: 'POST',
    path: '/v2/wallet/webhooks/kyc',
    access: 'provider',
    tag: 'webhooks',
    summary: 'Verification provider notification (signed)',
    body: s.KycWebhook,
    answer: s.WebhookAnswer,
  }),
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type InferIn<T> = T extends z.ZodType ? z.input<T> : undefined;
export type BodyOf<N extends CallName> = InferIn<Calls[N] extends { body: infer B } ? B : undefined>;
export type QueryOf<N extends CallName> = InferIn<Calls[N] extends { query: infer Q } ? Q : undefined>;
export type ParamsOf<N extends CallName> = InferIn<Calls[N] extends { params: infer P } ? P : undefined>;
export type AnswerOf<N extends CallName> = Infer<Calls[N]['answer']>;
/** What the server's handler receives after validation (zod output types). */
export type BodyOut<N extends CallName> = Infer<Calls[N] extends { body: infer B } ? B : undefined>;
export type QueryOut<N extends CallName> = Infer<Calls[N] extends { query: infer Q } ? Q : undefined>;
export type ParamsOut<N extends CallName> = Infer<Calls[N] extends { params: infer P } ? P : undefined>;
