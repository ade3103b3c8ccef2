/**
 * A person's merchant account (docs/decisions/merchants.md#merchants): applied for at the full
 * identification level, decided by an operator (ops/merchants.ts), its money a ledger account of its own.
 *
 *   applyMerchant(ctx, userId, body)      POST  /v2/wallet/merchant
 *   ownMerchant(ctx, userId)              GET   /v2/wallet/merchant
 *   updateMerchant(ctx, userId, body)     PATCH /v2/wallet/merchant
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AnswerOf,
  accountChecksumOk,
  type BodyOut,
  formatAmount,
  type Language,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { merchantsKey, open, seal } from '../../crypto/sealed.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { outboundProblem } from '../../http/outbound.ts';
import { balanceOf, openMerchantAccount } from '../../ledger/index.ts';
import { isValidTaxpayerInn } from '../../providers/kyc/documents.ts';
import { securityChanged } from '../auth/index.ts';
import { checkConfirmation } from '../money-calls/index.ts';

export interface MerchantRow {
  id: string;
  user_id: string;
  kind: 'self_employed' | 'company';
  name: string;
  inn: string;
  mcc: string;
  site_url: string;
  bank_bic: string;
  bank_account: string;
  notification_url: string | null;
  status: 'pending' | 'active' | 'rejected';
  reason: string | null;
  account_id: string;
  webhook_secret: Buffer;
  created_at: Date;
}

const REFUSED_URL: Record<string, Record<Language, string>> = {
  'not a URL': { ru: 'это не адрес', en: 'not an address' },
  'credentials in the URL': { ru: 'в адресе логин или пароль', en: 'it carries a user name or password' },
  'not https': { ru: 'нужен https', en: 'https is required' },
  'not a public address': { ru: 'это не публичный адрес', en: 'not a public address' },
};

/**
 * Where notifications may go: the push sender's outbound rules (http/outbound.ts), any public host;
 * plain http to loopback only outside production, for the example shop and the tests.
 */
export function notificationPolicy(ctx: AppContext) {
  return { hosts: [] as string[], localTestService: !ctx.config.production };
}

/** The HMAC key of a merchant's notifications, sealed to its row (never stored in the clear). */
function secretKey(ctx: AppContext): Buffer {
  return merchantsKey(ctx.config.PAYOUTS_KEY);
}
export function sealSecret(ctx: AppContext, merchantId: string, secret: string): Buffer {
  return seal(secretKey(ctx), Buffer.from(secret, 'utf8'), `merchant:${merchantId}`);
}
export function webhookSecretOf(ctx: AppContext, row: Pick<MerchantRow, 'id' | 'webhook_secret'>): string {
  return open(secretKey(ctx), row.webhook_secret, `merchant:${row.id}`).toString('utf8');
}
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** The checks every call that writes a merchant's details asks: INN, bank account, notification URL. */
function checkDetails(
  ctx: AppContext,
  details: { inn?: string; bank_bic?: string; bank_account?: string; notification_url?: string | null },
  language: Language,
): void {
  if (details.inn !== undefined && !isValidTaxpayerInn(details.inn))
    throw new AppError('FIELD_INVALID', { field: 'inn' });
  // The same control key the GOST payments check (packages/contract qr.ts).
  if (
    details.bank_bic !== undefined &&
    details.bank_account !== undefined &&
    !accountChecksumOk(details.bank_bic, details.bank_account)
  )
    throw new AppError('FIELD_INVALID', { field: 'bank_account' });
  if (details.notification_url) {
    const problem = outboundProblem(details.notification_url, notificationPolicy(ctx));
    if (problem)
      throw new AppError('MERCHANT_URL_REFUSED', {
        reason: REFUSED_URL[problem]?.[language] ?? problem,
      });
  }
}

const COLUMNS = `id, user_id, kind, name, inn, mcc, site_url, bank_bic, bank_account, notification_url, status,
  reason, account_id, webhook_secret, created_at`;

export async function merchantOfUser(q: Queryable, userId: string): Promise<MerchantRow | null> {
  const { rows } = await q.query<MerchantRow>(`SELECT ${COLUMNS} FROM merchants WHERE user_id = $1`, [
    userId,
  ]);
  return rows[0] ?? null;
}

/** The person's merchant's ledger account when `accountId` names it, for its statement; else null. */
export async function merchantAccountOfUser(
  q: Queryable,
  userId: string,
  accountId: string,
): Promise<{ id: string; currency: 'RUB' } | null> {
  const { rows } = await q.query<{ id: string }>(
    'SELECT account_id AS id FROM merchants WHERE user_id = $1 AND account_id::text = $2',
    [userId, accountId],
  );
  return rows[0] ? { id: rows[0].id, currency: 'RUB' } : null;
}

export async function merchantById(q: Queryable, id: string, lock = false): Promise<MerchantRow | null> {
  const { rows } = await q.query<MerchantRow>(
    `SELECT ${COLUMNS} FROM merchants WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export function merchantView(row: MerchantRow): AnswerOf<'merchantApply'>['merchant'] {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    name: row.name,
    inn: row.inn,
    mcc: row.mcc,
    site_url: row.site_url,
    bank_bic: row.bank_bic,
    bank_account: row.bank_account,
    notification_url: row.notification_url,
    reason: row.reason,
    created_at: row.created_at.toISOString(),
  };
}

export async function applyMerchant(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'merchantApply'>,
  language: Language,
): Promise<AnswerOf<'merchantApply'>> {
  checkDetails(ctx, body, language);
  const at = ctx.clock.now();
  const row = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ level: string }>(
      'SELECT identification_level AS level FROM users WHERE id = $1 FOR NO KEY UPDATE',
      [userId],
    );
    if (rows[0]?.level !== 'full') throw new AppError('MERCHANT_LEVEL_REQUIRED');
    if (await merchantOfUser(q, userId)) throw new AppError('MERCHANT_EXISTS');
    const id = randomUUID();
    const account = await openMerchantAccount(q, at);
    const { rows: made } = await q.query<MerchantRow>(
      `INSERT INTO merchants (id, user_id, kind, name, inn, mcc, site_url, bank_bic, bank_account,
         notification_url, status, account_id, webhook_secret, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12, $13, $13) RETURNING ${COLUMNS}`,
      [
        id,
        userId,
        body.kind,
        body.name,
        body.inn,
        body.mcc,
        body.site_url,
        body.bank_bic,
        body.bank_account,
        body.notification_url ?? null,
        account,
        sealSecret(ctx, id, newWebhookSecret()),
        at,
      ],
    );
    return made[0]!;
  });
  return { status: 'success', merchant: merchantView(row) };
}

/** The fee of a payment under the tariff in force: rounded down, so a payer's kopeck is never over-taken. */
export function feeOf(ctx: AppContext, amount: bigint): bigint {
  return (amount * BigInt(ctx.config.MERCHANT_FEE_BASIS_POINTS)) / 10_000n;
}

export async function ownMerchant(ctx: AppContext, userId: string): Promise<AnswerOf<'merchantOwn'>> {
  const row = await merchantOfUser(ctx.db, userId);
  if (!row) throw new AppError('MERCHANT_NOT_FOUND');
  const money = await balanceOf(ctx.db, row.account_id);
  return {
    status: 'success',
    merchant: {
      ...merchantView(row),
      balance: formatAmount(money.available, 'RUB'),
      currency_code: 'RUB',
      webhook_secret: webhookSecretOf(ctx, row),
      // Basis points read as a percent with two decimals, in integers (150 -> '1.50').
      fee_percent: formatAmount(BigInt(ctx.config.MERCHANT_FEE_BASIS_POINTS), 'RUB'),
      settlement_hour: ctx.config.MERCHANT_SETTLEMENT_HOUR,
      account_id: row.account_id,
    },
  };
}

export async function updateMerchant(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'merchantUpdate'>,
  language: Language,
): Promise<AnswerOf<'merchantUpdate'>> {
  const { pin, passkey, ...changes } = body;
  // A new settlement account is where the money goes (settlements.ts): the PIN or a passkey, checked
  // before the row is locked, after the account's own check.
  const before = await merchantOfUser(ctx.db, userId);
  if (!before) throw new AppError('MERCHANT_NOT_FOUND');
  const bank = { bank_bic: before.bank_bic, bank_account: before.bank_account, ...changes };
  if (bank.bank_bic !== before.bank_bic || bank.bank_account !== before.bank_account) {
    checkDetails(ctx, bank, language);
    if (pin === undefined && passkey === undefined) throw new AppError('FIELD_REQUIRED', { field: 'pin' });
    await checkConfirmation(ctx, userId, { ...(pin ? { pin } : {}), ...(passkey ? { passkey } : {}) });
    // Told to the owner and recorded before the account changes, so no settlement reaches it unseen
    // for a day (settlements.ts, `accountSetLately`).
    await securityChanged(ctx, userId, 'settlement_account_changed', 'pin', language);
  }
  const row = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<MerchantRow>(
      `SELECT ${COLUMNS} FROM merchants WHERE user_id = $1 FOR UPDATE`,
      [userId],
    );
    const current = rows[0];
    if (!current) throw new AppError('MERCHANT_NOT_FOUND');
    const next = { ...current, ...changes };
    checkDetails(ctx, { ...next, inn: undefined }, language);
    const { rows: changed } = await q.query<MerchantRow>(
      `UPDATE merchants SET name = $2, mcc = $3, site_url = $4, bank_bic = $5, bank_account = $6,
         notification_url = $7, updated_at = $8 WHERE id = $1 RETURNING ${COLUMNS}`,
      [
        current.id,
        next.name,
        next.mcc,
        next.site_url,
        next.bank_bic,
        next.bank_account,
        next.notification_url ?? null,
        ctx.clock.now(),
      ],
    );
    return changed[0]!;
  });
  return { status: 'success', merchant: merchantView(row) };
}
