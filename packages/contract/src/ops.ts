/**
 * The operators' back office API (docs/decisions/back-office.md#the-operators-back-office): served under
 * /ops/v1 on its own port (OPS_PORT), never on the public one. Calls carry an operator's `Authorization:
 * Token <token>`; each names the roles allowed to make it. The back office app (apps/backoffice) calls
 * through this table.
 */
import { z } from 'zod';
import { opsJobsCalls } from './jobs.ts';
import { opsMerchantCalls } from './merchants.ts';
import { PlainText, plainTextCall } from './plain-text.ts';
import { Amount, Cursor, DayBound, Id, Limit } from './schemas.ts';
import { opsSupportCalls } from './support.ts';

export const OPERATOR_ROLES = ['admin', 'compliance', 'support', 'finance'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * What each role may do. Every role reads (users, the queue, payouts, refunds, the audit);
 * support freezes; compliance also unfreezes and decides identifications; finance also proposes and
 * approves refunds, settles payouts and reads the reconciliation; admin may do everything and manages
 * operators.
 */
export const PERMISSIONS = {
  read: ['support', 'compliance', 'finance', 'admin'],
  freeze: ['support', 'compliance', 'finance', 'admin'],
  unfreeze: ['compliance', 'admin'],
  identify: ['compliance', 'admin'],
  refund: ['finance', 'admin'],
  payouts: ['finance', 'admin'],
  reconcile: ['finance', 'admin'],
  operators: ['admin'],
  // The support chat and the job system (docs/decisions/support.md#support-chat): every role answers; admins
  // retry jobs.
  support: ['support', 'compliance', 'finance', 'admin'],
  jobs: ['admin'],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type Permission = keyof typeof PERMISSIONS;

export function roleAllows(role: OperatorRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly OperatorRole[]).includes(role);
}

/**
 * A role that approves (refunds, fraud-list entries, releases of held money) or manages operators is
 * granted only when a second administrator confirms it (four eyes on the people who hold four eyes,
 * docs/decisions/back-office.md#the-back-office-on-the-apps-stack, docs/decisions/recovery-and-four-eyes.md).
 */
export function roleNeedsSecondAdmin(role: OperatorRole): boolean {
  return roleAllows(role, 'refund') || roleAllows(role, 'identify') || roleAllows(role, 'operators');
}

/** A password an operator sets: as long as the sign-in asks (apps/server/src/ops/operators.ts). */
export const OPERATOR_PASSWORD_MIN = 12;

const Email = z.string().trim().toLowerCase().pipe(z.email().max(200));
export const OpsLoginRequest = z.strictObject({
  email: Email,
  password: z.string().min(1).max(200),
  totp: z.string().regex(/^\d{6}$/),
  new_password: z.string().min(1).max(200).optional(),
});
/** An operator's reason: plain text (plain-text.ts), read by other operators and in the audit. */
export const OpsReasonRequest = z.strictObject({ reason: PlainText(500) });
export const OpsRefundRequest = z.strictObject({
  transfer_id: Id,
  amount: Amount,
  reason: PlainText(500),
});
/** A recipient operators mark as fraud: a phone (E.164), a 16-digit card or a 20-digit account. */
export const OpsFraudEntryRequest = z.strictObject({
  kind: z.enum(['phone', 'card', 'account']),
  value: z
    .string()
    .trim()
    .regex(/^\+?[0-9]{8,20}$/),
  reason: PlainText(500),
});
export const OpsCreateOperatorRequest = z.strictObject({ email: Email, role: z.enum(OPERATOR_ROLES) });
export const OpsRoleRequest = z.strictObject({ role: z.enum(OPERATOR_ROLES) });
export const OpsIdParams = z.strictObject({ id: Id });
/** A one-time link's token: 256 random bits, base64url. */
const SetupToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
export const OpsSetupStartRequest = z.strictObject({ token: SetupToken });
export const OpsSetupFinishRequest = z.strictObject({
  token: SetupToken,
  /** The new operator's own password (a new operator's link). */
  password: z.string().min(OPERATOR_PASSWORD_MIN).max(200).optional(),
  /** The operator's current password (a TOTP reset's link: the link alone is not enough). */
  current_password: z.string().min(1).max(200).optional(),
  totp: z.string().regex(/^\d{6}$/),
});
/** Every list of the back office is a page like the wallet's: `{results, next}`, `next` the cursor. */
const PageQuery = { cursor: Cursor.optional(), limit: Limit.optional() };
/** An empty filter (`?user=`) is no filter. */
const OptionalId = z.preprocess((value) => (value === '' ? undefined : value), Id.optional());
const OptionalText = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.string().trim().min(1).max(100).optional(),
);
export const OpsUsersQuery = z.strictObject({ query: OptionalText, ...PageQuery });
export const OpsStatusQuery = z.strictObject({ status: z.string().max(20).optional(), ...PageQuery });
export const OpsPageQuery = z.strictObject(PageQuery);
export const OpsAuditQuery = z.strictObject({ user: OptionalId, operator: OptionalId, ...PageQuery });
export const OpsDateQuery = z.strictObject({ date: DayBound });

export interface OpsCallDef {
  method: 'GET' | 'POST';
  path: string;
  /** Who may call it; 'public' is the sign-in itself. */
  permission: Permission | 'public' | 'signed_in';
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}
/** Every call refuses control characters in any text it takes (plain-text.ts). */
const def = <T extends OpsCallDef>(call: T): T => plainTextCall(call);

export const opsCalls = {
  login: def({ method: 'POST', path: '/ops/v1/auth/login', permission: 'public', body: OpsLoginRequest }),
  logout: def({ method: 'POST', path: '/ops/v1/auth/logout', permission: 'signed_in' }),
  me: def({ method: 'GET', path: '/ops/v1/me', permission: 'signed_in' }),
  users: def({ method: 'GET', path: '/ops/v1/users', permission: 'read', query: OpsUsersQuery }),
  user: def({ method: 'GET', path: '/ops/v1/users/:id', permission: 'read', params: OpsIdParams }),
  freeze: def({
    method: 'POST',
    path: '/ops/v1/users/:id/freeze',
    permission: 'freeze',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  unfreeze: def({
    method: 'POST',
    path: '/ops/v1/users/:id/unfreeze',
    permission: 'unfreeze',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  reportClose: def({
    method: 'POST',
    path: '/ops/v1/reports/:id/close',
    permission: 'freeze',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  identifications: def({
    method: 'GET',
    path: '/ops/v1/identifications',
    permission: 'read',
    query: OpsStatusQuery,
  }),
  identificationPhotos: def({
    method: 'GET',
    path: '/ops/v1/identifications/:id/photos',
    permission: 'identify',
    params: OpsIdParams,
  }),
  identificationApprove: def({
    method: 'POST',
    path: '/ops/v1/identifications/:id/approve',
    permission: 'identify',
    params: OpsIdParams,
  }),
  identificationReject: def({
    method: 'POST',
    path: '/ops/v1/identifications/:id/reject',
    permission: 'identify',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  refunds: def({ method: 'GET', path: '/ops/v1/refunds', permission: 'read', query: OpsStatusQuery }),
  refundPropose: def({
    method: 'POST',
    path: '/ops/v1/refunds',
    permission: 'refund',
    body: OpsRefundRequest,
  }),
  refundApprove: def({
    method: 'POST',
    path: '/ops/v1/refunds/:id/approve',
    permission: 'refund',
    params: OpsIdParams,
  }),
  refundReject: def({
    method: 'POST',
    path: '/ops/v1/refunds/:id/reject',
    permission: 'refund',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  payouts: def({ method: 'GET', path: '/ops/v1/payouts', permission: 'read', query: OpsStatusQuery }),
  payoutSettle: def({
    method: 'POST',
    path: '/ops/v1/payouts/:id/settle',
    permission: 'payouts',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  payoutRelease: def({
    method: 'POST',
    path: '/ops/v1/payouts/:id/release',
    permission: 'payouts',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  audit: def({ method: 'GET', path: '/ops/v1/audit', permission: 'read', query: OpsAuditQuery }),
  reconciliation: def({
    method: 'GET',
    path: '/ops/v1/reconciliation',
    permission: 'reconcile',
    query: OpsDateQuery,
  }),
  operators: def({ method: 'GET', path: '/ops/v1/operators', permission: 'operators', query: OpsPageQuery }),
  operatorCreate: def({
    method: 'POST',
    path: '/ops/v1/operators',
    permission: 'operators',
    body: OpsCreateOperatorRequest,
  }),
  operatorUnlock: def({
    method: 'POST',
    path: '/ops/v1/operators/:id/unlock',
    permission: 'operators',
    params: OpsIdParams,
  }),
  operatorDisable: def({
    method: 'POST',
    path: '/ops/v1/operators/:id/disable',
    permission: 'operators',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  operatorRole: def({
    method: 'POST',
    path: '/ops/v1/operators/:id/role',
    permission: 'operators',
    params: OpsIdParams,
    body: OpsRoleRequest,
  }),
  operatorRoleConfirm: def({
    method: 'POST',
    path: '/ops/v1/operators/:id/role/confirm',
    permission: 'operators',
    params: OpsIdParams,
  }),
  operatorTotpReset: def({
    method: 'POST',
    path: '/ops/v1/operators/:id/totp-reset',
    permission: 'operators',
    params: OpsIdParams,
  }),
  setupStart: def({
    method: 'POST',
    path: '/ops/v1/setup/start',
    permission: 'public',
    body: OpsSetupStartRequest,
  }),
  setupFinish: def({
    method: 'POST',
    path: '/ops/v1/setup/finish',
    permission: 'public',
    body: OpsSetupFinishRequest,
  }),

  // Antifraud (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): held operations (support and
  // above release or refuse them after calling the person) and the local fraud list (compliance, four eyes).
  holds: def({ method: 'GET', path: '/ops/v1/holds', permission: 'read', query: OpsStatusQuery }),
  holdRelease: def({
    method: 'POST',
    path: '/ops/v1/holds/:id/release',
    permission: 'freeze',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  holdRefuse: def({
    method: 'POST',
    path: '/ops/v1/holds/:id/refuse',
    permission: 'freeze',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  fraudList: def({ method: 'GET', path: '/ops/v1/fraud-list', permission: 'read', query: OpsStatusQuery }),
  fraudListPropose: def({
    method: 'POST',
    path: '/ops/v1/fraud-list',
    permission: 'identify',
    body: OpsFraudEntryRequest,
  }),
  fraudListConfirm: def({
    method: 'POST',
    path: '/ops/v1/fraud-list/:id/confirm',
    permission: 'identify',
    params: OpsIdParams,
  }),
  fraudListRemove: def({
    method: 'POST',
    path: '/ops/v1/fraud-list/:id/remove',
    permission: 'identify',
    params: OpsIdParams,
    body: OpsReasonRequest,
  }),
  ...opsSupportCalls,
  ...opsJobsCalls,
  ...opsMerchantCalls,
} as const;
export type OpsCallName = keyof typeof opsCalls;
type OpsCalls = typeof opsCalls;
type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
/** What the ops server's handler of a call receives after validation (zod output types). */
export type OpsBodyOut<N extends OpsCallName> = Out<OpsCalls[N] extends { body: infer B } ? B : undefined>;
export type OpsQueryOut<N extends OpsCallName> = Out<OpsCalls[N] extends { query: infer Q } ? Q : undefined>;
export type OpsParamsOut<N extends OpsCallName> = Out<
  OpsCalls[N] extends { params: infer P } ? P : undefined
>;
