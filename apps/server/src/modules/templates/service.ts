/**
 * Saved payees and repeating a transfer
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers): templates
 * keep a phone (and an amount or none), a wallet user's or one at a bank by СБП
 * (docs/decisions/sbp.md#saved-payees-and-repeat); the recent recipients and 'Повторить' read the person's
 * own outgoing transfers (an СБП one from its payout).
 * Nothing here moves money: the transfer form does, with the PIN.
 */
import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_CURRENCIES,
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  formatAmount,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import { sbpRepeatOf } from '../payouts/index.ts';
import { sbpDestination } from '../sbp/index.ts';
import { findRecipient } from '../transfer/index.ts';

export const TEMPLATES_MAX = 50;
const RECENT_MAX = 10;

interface TemplateRow {
  id: string;
  name: string;
  phone: string;
  amount: bigint | null;
  currency: CurrencyCode;
  kind: 'wallet' | 'sbp';
  bank_id: string | null;
  bank_name: string | null;
  created_at: Date;
  first_name: string | null;
  last_name: string | null;
}

type Template = AnswerOf<'templateCreate'>['template'];

function templateOf(row: TemplateRow): Template {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    kind: row.kind,
    bank: row.bank_id && row.bank_name ? { id: row.bank_id, name: row.bank_name } : null,
    // An СБП payee's name is the bank's to tell (the check before the PIN asks it), not a wallet user's.
    recipient:
      row.kind === 'wallet' && row.first_name !== null ? maskedName(row.first_name, row.last_name ?? '') : '',
    amount: row.amount === null ? null : formatAmount(row.amount, row.currency),
    currency_code: row.currency,
    created_at: row.created_at.toISOString(),
  };
}

const SELECT_TEMPLATE = `SELECT t.id, t.name, t.phone, t.amount, t.currency, t.kind, t.bank_id, t.bank_name,
  t.created_at, u.first_name, u.last_name
  FROM payment_templates t LEFT JOIN users u ON u.phone = t.phone`;

export async function listTemplates(ctx: AppContext, userId: string): Promise<AnswerOf<'templateList'>> {
  const { rows } = await ctx.db.query<TemplateRow>(
    `${SELECT_TEMPLATE} WHERE t.user_id = $1 ORDER BY t.name, t.id LIMIT ${TEMPLATES_MAX}`,
    [userId],
  );
  return { results: rows.map(templateOf), next: null };
}

/**
 * Saves a payee: a wallet user's phone is resolved to a person as the lookup does, under the same limit; an
 * СБП payee is a Russian phone at a participant bank (СБП's own rule), in roubles.
 */
export async function createTemplate(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'templateCreate'>,
): Promise<AnswerOf<'templateCreate'>> {
  if (!(ACCOUNT_CURRENCIES as readonly string[]).includes(body.currency_code))
    throw new AppError('CURRENCY_NOT_SUPPORTED');
  const amount = body.amount === undefined ? null : amountOf(body.amount, body.currency_code);
  const sbp = body.kind === 'sbp';
  let bank: { id: string; name: string } | null = null;
  if (sbp) {
    if (body.currency_code !== 'RUB') throw new AppError('CURRENCY_NOT_SUPPORTED');
    const destination = await sbpDestination(ctx, body.phone, body.bank_id ?? '');
    if (destination.problems[0]) throw destination.problems[0];
    bank = destination.bank;
  } else await findRecipient(ctx, userId, body.phone);
  const id = randomUUID();
  await ctx.db.tx(async (q) => {
    // The person's row serialises their template writes, so the cap holds under concurrent saves.
    await q.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    const { rows } = await q.query<{ count: bigint }>(
      'SELECT count(*) AS count FROM payment_templates WHERE user_id = $1',
      [userId],
    );
    if (Number(rows[0]?.count ?? 0) >= TEMPLATES_MAX) throw new AppError('TEMPLATES_TOO_MANY');
    await q.query(
      `INSERT INTO payment_templates (id, user_id, name, phone, amount, currency, created_at, kind, bank_id,
         bank_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        id,
        userId,
        body.name,
        body.phone,
        amount,
        body.currency_code,
        ctx.clock.now(),
        sbp ? 'sbp' : 'wallet',
        bank?.id ?? null,
        bank?.name ?? null,
      ],
    );
  });
  const { rows } = await ctx.db.query<TemplateRow>(`${SELECT_TEMPLATE} WHERE t.id = $1`, [id]);
  return { status: 'success', template: templateOf(rows[0]!) };
}

export async function deleteTemplate(ctx: AppContext, userId: string, id: string): Promise<void> {
  const { rowCount } = await ctx.db.query('DELETE FROM payment_templates WHERE id = $1 AND user_id = $2', [
    id,
    userId,
  ]);
  if (rowCount === 0) throw new AppError('TEMPLATE_NOT_FOUND');
}

/** The people of the person's latest outgoing transfers, newest first, each once. */
export async function recentRecipients(
  ctx: AppContext,
  userId: string,
): Promise<AnswerOf<'recentRecipients'>> {
  const { rows } = await ctx.db.query<{
    phone: string;
    first_name: string;
    last_name: string;
    last_at: Date;
  }>(
    `SELECT u.phone, u.first_name, u.last_name, max(recent.created_at) AS last_at
     FROM (SELECT t.credit_account_id, t.created_at FROM ledger_entries e
           JOIN ledger_transfers t ON t.id = e.transfer_id
           WHERE e.user_id = $1 AND e.amount < 0 AND t.kind = 'transfer' AND t.status = 'posted'
           ORDER BY e.created_at DESC LIMIT 200) recent
     JOIN ledger_accounts c ON c.id = recent.credit_account_id JOIN users u ON u.id = c.user_id
     GROUP BY u.id ORDER BY last_at DESC LIMIT ${RECENT_MAX}`,
    [userId],
  );
  return {
    results: rows.map((row) => ({
      phone: row.phone,
      name: maskedName(row.first_name, row.last_name),
      last_at: row.last_at.toISOString(),
    })),
    next: null,
  };
}

/** 'Повторить': the recipient and amount of one of the person's own outgoing transfers to a person or by СБП. */
export async function repeatOf(
  ctx: AppContext,
  userId: string,
  transferId: string,
): Promise<AnswerOf<'transactionRepeat'>> {
  const { rows } = await ctx.db.query<{
    phone: string;
    first_name: string;
    last_name: string;
    amount: bigint;
    currency: CurrencyCode;
  }>(
    `SELECT u.phone, u.first_name, u.last_name, t.amount, t.currency
     FROM ledger_transfers t JOIN ledger_accounts d ON d.id = t.debit_account_id
     JOIN ledger_accounts c ON c.id = t.credit_account_id JOIN users u ON u.id = c.user_id
     WHERE t.id = $1 AND d.user_id = $2 AND t.kind IN ('transfer', 'payment') AND t.status = 'posted'`,
    [transferId, userId],
  );
  const row = rows[0];
  if (!row) {
    const sbp = await sbpRepeatOf(ctx, userId, transferId);
    if (!sbp) throw new AppError('TRANSACTION_NOT_REPEATABLE');
    return {
      status: 'success',
      phone: sbp.phone,
      kind: 'sbp',
      bank: sbp.bank,
      name: sbp.name ?? '',
      amount: formatAmount(sbp.amount, 'RUB'),
      currency_code: 'RUB',
    };
  }
  return {
    status: 'success',
    phone: row.phone,
    kind: 'wallet',
    bank: null,
    name: maskedName(row.first_name, row.last_name),
    amount: formatAmount(row.amount, row.currency),
    currency_code: row.currency,
  };
}
