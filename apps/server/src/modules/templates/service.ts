/**
 * Saved payees and repeating a transfer
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers): templates
 * keep a phone (and an amount or none); the recent recipients and 'Повторить' read the person's own outgoing
 * transfers.
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
import { findRecipient } from '../transfer/index.ts';

export const TEMPLATES_MAX = 50;
const RECENT_MAX = 10;

interface TemplateRow {
  id: string;
  name: string;
  phone: string;
  amount: bigint | null;
  currency: CurrencyCode;
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
    recipient: row.first_name !== null ? maskedName(row.first_name, row.last_name ?? '') : '',
    amount: row.amount === null ? null : formatAmount(row.amount, row.currency),
    currency_code: row.currency,
    created_at: row.created_at.toISOString(),
  };
}

const SELECT_TEMPLATE = `SELECT t.id, t.name, t.phone, t.amount, t.currency, t.created_at, u.first_name, u.last_name
  FROM payment_templates t LEFT JOIN users u ON u.phone = t.phone`;

export async function listTemplates(ctx: AppContext, userId: string): Promise<AnswerOf<'templateList'>> {
  const { rows } = await ctx.db.query<TemplateRow>(
    `${SELECT_TEMPLATE} WHERE t.user_id = $1 ORDER BY t.name, t.id LIMIT ${TEMPLATES_MAX}`,
    [userId],
  );
  return { results: rows.map(templateOf), next: null };
}

/** Saves a payee: the phone is resolved to a person as the lookup does, under the same limit. */
export async function createTemplate(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'templateCreate'>,
): Promise<AnswerOf<'templateCreate'>> {
  if (!(ACCOUNT_CURRENCIES as readonly string[]).includes(body.currency_code))
    throw new AppError('CURRENCY_NOT_SUPPORTED');
  const amount = body.amount === undefined ? null : amountOf(body.amount, body.currency_code);
  await findRecipient(ctx, userId, body.phone);
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
      `INSERT INTO payment_templates (id, user_id, name, phone, amount, currency, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, userId, body.name, body.phone, amount, body.currency_code, ctx.clock.now()],
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

/** 'Повторить': the recipient and amount of one of the person's own outgoing transfers to a person. */
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
  if (!row) throw new AppError('TRANSACTION_NOT_REPEATABLE');
  return {
    status: 'success',
    phone: row.phone,
    name: maskedName(row.first_name, row.last_name),
    amount: formatAmount(row.amount, row.currency),
    currency_code: row.currency,
  };
}
