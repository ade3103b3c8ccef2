/**
 * Payment requests
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers): a person asks
 * another for money by phone, by a link anyone signed in may pay, or split among several phones. Paying one
 * is a transfer through the money-call pipeline (modules/money-calls), in a transaction that holds the
 * request's row, so a request is paid at most once however many pays race; the payer's PIN, limits and freeze
 * apply as to any transfer.
 *
 *   createRequest(ctx, userId, body, language)     POST /v2/wallet/request
 *   listRequests(ctx, userId, query)               GET  /v2/wallet/request?direction=
 *   requestByLink(ctx, userId, token)              GET  /v2/wallet/request/link/:token
 *   payRequest(ctx, userId, id, pin, options)      POST /v2/wallet/request/:id/pay
 *   declineRequest / cancelRequest                 POST /v2/wallet/request/:id/decline | cancel
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ACCOUNT_CURRENCIES,
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  formatAmount,
  formatMoney,
  type Language,
  type QueryOut,
} from '@e-wallet/contract';
import { nameIn } from '@e-wallet/contract/names';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError, isAppError } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { newTransferId, userAccount } from '../../ledger/index.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import { holdWaitsFor } from '../antifraud/index.ts';
import {
  type CheckAnswer,
  type Confirmation,
  checkAnswer,
  moneyCall,
  onRelease,
  paymentProblemsOf,
  requestHash,
} from '../money-calls/index.ts';
import { notify } from '../notifications/index.ts';
import { findRecipient, type Recipient, transferReceipt } from '../transfer/index.ts';

/**
 * How long a request may be paid
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers).
 */
export const REQUEST_TTL_MS = 7 * 24 * 60 * 60_000;
const DEFAULT_PAGE = 20;

type RequestView = AnswerOf<'requestLink'>;

interface RequestRow {
  id: string;
  requester_id: string;
  payer_id: string | null;
  amount: bigint;
  currency: CurrencyCode;
  comment: string | null;
  status: 'pending' | 'paid' | 'declined' | 'cancelled';
  created_at: Date;
  expires_at: Date;
  requester_first: string;
  requester_last: string;
  payer_first: string | null;
  payer_last: string | null;
}

const SELECT_REQUEST = `SELECT r.id, r.requester_id, r.payer_id, r.amount, r.currency, r.comment, r.status,
    r.created_at, r.expires_at, rq.first_name AS requester_first, rq.last_name AS requester_last,
    p.first_name AS payer_first, p.last_name AS payer_last
  FROM payment_requests r JOIN users rq ON rq.id = r.requester_id
  LEFT JOIN users p ON p.id = coalesce(r.paid_by, r.payer_id)`;

function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function linkOf(ctx: AppContext, token: string): string {
  return `${ctx.config.PUBLIC_URL}/pay/r/${token}`;
}

function statusAt(row: Pick<RequestRow, 'status' | 'expires_at'>, now: Date): RequestView['status'] {
  return row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;
}

function viewOf(row: RequestRow, userId: string, now: Date): RequestView {
  const outgoing = row.requester_id === userId;
  const counterparty = outgoing
    ? row.payer_first !== null
      ? maskedName(row.payer_first, row.payer_last ?? '')
      : null
    : maskedName(row.requester_first, row.requester_last);
  return {
    id: row.id,
    direction: outgoing ? 'outgoing' : 'incoming',
    amount: formatAmount(row.amount, row.currency),
    currency_code: row.currency,
    status: statusAt(row, now),
    counterparty,
    comment: row.comment,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}

/** `total` in `parts` shares of whole minor units, the remainder spread over the first shares. */
export function splitAmount(total: bigint, parts: number): bigint[] {
  const count = BigInt(parts);
  const base = total / count;
  const rest = Number(total % count);
  return Array.from({ length: parts }, (_, i) => base + (i < rest ? 1n : 0n));
}

/** A payer by phone; one's own phone is refused in a request's words, not a transfer's. */
async function payerOf(ctx: AppContext, userId: string, phone: string): Promise<Recipient> {
  try {
    return await findRecipient(ctx, userId, phone);
  } catch (error) {
    if (isAppError(error) && error.code === 'RECIPIENT_SELF') throw new AppError('REQUEST_SELF');
    throw error;
  }
}

export async function createRequest(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'requestCreate'>,
  language: Language,
): Promise<AnswerOf<'requestCreate'>> {
  const currency = body.currency_code;
  if (!(ACCOUNT_CURRENCIES as readonly string[]).includes(currency))
    throw new AppError('CURRENCY_NOT_SUPPORTED');
  const amount = amountOf(body.amount, currency);
  if (!(await userAccount(ctx.db, userId, currency))) throw new AppError('ACCOUNT_NOT_FOUND');
  const phones = body.phones ? [...new Set(body.phones)] : body.phone ? [body.phone] : [];
  const includeMe = body.include_me === true;
  if (body.phones && phones.length < (includeMe ? 1 : 2))
    throw new AppError('FIELD_INVALID', { field: 'phones' });
  const parts = Math.max(phones.length, 1) + (includeMe ? 1 : 0);
  if (amount < BigInt(parts)) throw new AppError('FIELD_INVALID', { field: 'amount' });
  // Every phone resolved to a person counts under the recipient lookup's one limit.
  const payers: (Recipient | null)[] = [];
  for (const phone of phones) payers.push(await payerOf(ctx, userId, phone));
  if (payers.length === 0) payers.push(null);

  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + REQUEST_TTL_MS);
  const groupId = randomUUID();
  // With the requester counted, their share is the first (it takes the remainder's extra minor units).
  const amounts = splitAmount(amount, parts).slice(includeMe ? 1 : 0);
  const { rows: me } = await ctx.db.query<{ first_name: string; last_name: string }>(
    'SELECT first_name, last_name FROM users WHERE id = $1',
    [userId],
  );
  const requester = maskedName(me[0]?.first_name ?? '', me[0]?.last_name ?? '');
  const shares = await ctx.db.tx(async (q) => {
    const made: AnswerOf<'requestCreate'>['shares'] = [];
    for (const [index, payer] of payers.entries()) {
      const id = index === 0 ? groupId : randomUUID();
      const token = randomBytes(24).toString('base64url');
      const share = amounts[index]!;
      await q.query(
        `INSERT INTO payment_requests (id, group_id, requester_id, payer_id, amount, currency, comment, token_hash,
           created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          id,
          groupId,
          userId,
          payer?.userId ?? null,
          share,
          currency,
          body.comment || null,
          tokenHash(token),
          now,
          expiresAt,
        ],
      );
      if (payer)
        await notify(
          q,
          payer.userId,
          'request',
          'request_incoming',
          {
            name: requester,
            amount: formatMoney(formatAmount(share, currency), currency, 'ru'),
            amount_en: formatMoney(formatAmount(share, currency), currency, 'en'),
          },
          now,
        );
      made.push({
        id,
        phone: payer?.phone ?? null,
        amount: formatAmount(share, currency),
        url: linkOf(ctx, token),
      });
    }
    return made;
  });
  void language;
  return {
    id: shares[0]!.id,
    status: 'pending',
    url: shares[0]!.url,
    amount: formatAmount(amount, currency),
    currency_code: currency,
    expires_at: expiresAt.toISOString(),
    shares,
  };
}

export async function listRequests(
  ctx: AppContext,
  userId: string,
  query: QueryOut<'requestList'>,
): Promise<AnswerOf<'requestList'>> {
  const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE;
  const column = (query.direction ?? 'incoming') === 'incoming' ? 'payer_id' : 'requester_id';
  const params: unknown[] = [userId];
  let after = '';
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor);
    params.push(cursor.createdAt, cursor.id);
    after = `AND (r.created_at, r.id) < ($2::timestamptz, $3::uuid)`;
  }
  params.push(limit + 1);
  const { rows } = await ctx.db.query<RequestRow>(
    `${SELECT_REQUEST} WHERE r.${column} = $1 ${after} ORDER BY r.created_at DESC, r.id DESC LIMIT $${params.length}`,
    params,
  );
  const now = ctx.clock.now();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    results: page.map((row) => viewOf(row, userId, now)),
    next: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/** A request the user may see: theirs, asked of them, or a link request nobody is named to pay. */
function visible(row: RequestRow | undefined, userId: string): row is RequestRow {
  return !!row && (row.requester_id === userId || row.payer_id === userId || row.payer_id === null);
}

export async function requestByLink(ctx: AppContext, userId: string, token: string): Promise<RequestView> {
  const { rows } = await ctx.db.query<RequestRow>(`${SELECT_REQUEST} WHERE r.token_hash = $1`, [
    tokenHash(token),
  ]);
  const row = rows[0];
  if (!visible(row, userId)) throw new AppError('REQUEST_NOT_FOUND');
  return viewOf(row, userId, ctx.clock.now());
}

const REQUEST_PAID_TEXT: Record<Language, string> = { ru: 'Запрос оплачен', en: 'The request is paid' };

/** The request's row locked and still payable, or why not (a pay's `before`, and a held pay's release). */
async function payable(
  q: Queryable,
  id: string,
  now: Date,
): Promise<{ row: RequestRow } | { refuse: AppError }> {
  const { rows } = await q.query<RequestRow>(`${SELECT_REQUEST} WHERE r.id = $1 FOR UPDATE OF r`, [id]);
  const row = rows[0];
  if (!row) return { refuse: new AppError('REQUEST_NOT_FOUND') };
  const status = statusAt(row, now);
  if (status !== 'pending')
    return { refuse: new AppError(status === 'paid' ? 'REQUEST_PAID' : 'REQUEST_CLOSED') };
  return { row };
}

function markPaid(q: Queryable, id: string, payer: string, transferId: string, at: Date) {
  return q.query(
    `UPDATE payment_requests SET status = 'paid', paid_by = $2, transfer_id = $3, closed_at = $4 WHERE id = $1`,
    [id, payer, transferId, at],
  );
}

// A held pay (docs/decisions/antifraud.md#antifraud-and-the-trusted-person) marks the request paid when its
// money is released; a request closed or paid meanwhile refuses the release, and the money stays held until
// cancelled.
onRelease('requestPay', {
  before: async (q, door) => {
    const found = await payable(q, door.reference!.id, door.at);
    return 'refuse' in found ? found.refuse : undefined;
  },
  after: async (q, door) => {
    await markPaid(q, door.reference!.id, door.payer, door.id, door.at);
    return undefined;
  },
});

/**
 * Whether paying the request can go through, before the PIN (as the transfer's check): the request's
 * own state, then the payment door's rules for this payer, payee and amount, asked of the door itself.
 */
export async function checkRequestPay(
  ctx: AppContext,
  userId: string,
  id: string,
  language: Language,
): Promise<CheckAnswer> {
  const now = ctx.clock.now();
  const { rows } = await ctx.db.query<RequestRow>(`${SELECT_REQUEST} WHERE r.id = $1`, [id]);
  const row = rows[0];
  if (!visible(row, userId)) throw new AppError('REQUEST_NOT_FOUND');
  if (row.requester_id === userId) return checkAnswer(ctx, userId, [new AppError('REQUEST_OWN')], language);
  const status = statusAt(row, now);
  if (status !== 'pending')
    return checkAnswer(
      ctx,
      userId,
      [new AppError(status === 'paid' ? 'REQUEST_PAID' : 'REQUEST_CLOSED')],
      language,
    );
  if (await holdWaitsFor(ctx.db, userId, 'requestPay', { type: 'payment_request', id: row.id }))
    return checkAnswer(ctx, userId, [new AppError('HOLD_WAITING')], language);
  const problems = await paymentProblemsOf(ctx, {
    payer: userId,
    payee: row.requester_id,
    currency: row.currency,
    amount: row.amount,
    kind: 'transfer',
  });
  return checkAnswer(ctx, userId, problems, language);
}

/**
 * Pays a request once, as a money call: the request's row is locked in the door's transaction, which
 * marks it paid, so a second pay (concurrent or later) finds it paid. A repeat with the first pay's
 * Idempotency-Key answers the first answer; any other pay of a paid request is REQUEST_PAID.
 */
export async function payRequest(
  ctx: AppContext,
  userId: string,
  id: string,
  confirmation: Confirmation,
  options: { idempotencyKey: string | null; language: Language; sessionId?: string },
): Promise<AnswerOf<'requestPay'>> {
  const now = ctx.clock.now();
  const transferId = newTransferId();
  let row: RequestRow | undefined;
  // The payee for the antifraud check, read before the call (its row is locked again in `before`).
  const { rows: asked } = await ctx.db.query<{
    requester_id: string;
    phone: string;
    amount: bigint;
    currency: CurrencyCode;
    first_name: string;
    last_name: string;
  }>(
    `SELECT r.requester_id, u.phone, r.amount, r.currency, u.first_name, u.last_name
     FROM payment_requests r JOIN users u ON u.id = r.requester_id WHERE r.id = $1`,
    [id],
  );
  const payee = asked[0];
  return moneyCall(ctx, {
    call: 'requestPay',
    person: userId,
    confirmation,
    key: options.idempotencyKey,
    requestHash: requestHash(ctx, { id }),
    paysOnce: true,
    before: async (q) => {
      const { rows } = await q.query<RequestRow>(`${SELECT_REQUEST} WHERE r.id = $1 FOR UPDATE OF r`, [id]);
      row = rows[0];
      if (!visible(row, userId)) throw new AppError('REQUEST_NOT_FOUND');
      if (row.requester_id === userId) throw new AppError('REQUEST_OWN');
      const status = statusAt(row, now);
      if (status !== 'pending')
        return { refuse: new AppError(status === 'paid' ? 'REQUEST_PAID' : 'REQUEST_CLOSED') };
      return undefined;
    },
    prepare: (signer) => {
      const request = row!;
      const requester = maskedName(request.requester_first, request.requester_last);
      const payer = signer ? maskedName(signer.firstName, signer.lastName) : '';
      const description = {
        debit: { ru: `Оплата запроса: ${requester}`, en: `Request paid to ${nameIn(requester, 'en')}` },
        credit: { ru: `Оплата запроса: ${payer}`, en: `Request paid by ${nameIn(payer, 'en')}` },
      };
      return {
        answer: {
          status: 'success' as const,
          message: REQUEST_PAID_TEXT[options.language],
          receipt: transferReceipt(
            {
              id: transferId,
              kind: 'transfer',
              amount: request.amount,
              currency: request.currency,
              createdAt: now,
              description,
            },
            requester,
            options.language,
          ),
        },
        door: {
          door: 'pay' as const,
          id: transferId,
          payer: userId,
          payee: request.requester_id,
          currency: request.currency,
          amount: request.amount,
          kind: 'transfer' as const,
          reference: { type: 'payment_request', id: request.id },
          description,
          at: now,
          rules: ctx.config.levelRulesJson,
        },
      };
    },
    after: async (q, outcome) => {
      if (outcome.outcome === 'created') await markPaid(q, id, userId, transferId, now);
    },
    ...(payee
      ? {
          antifraud: {
            payee: {
              userId: payee.requester_id,
              phone: payee.phone,
              label: maskedName(payee.first_name, payee.last_name),
            },
            amount: payee.amount,
            currency: payee.currency,
            sessionId: options.sessionId ?? null,
            language: options.language,
          },
        }
      : {}),
  });
}

const CLOSED_TEXT = {
  declined: { ru: 'Запрос отклонён', en: 'The request is declined' },
  cancelled: { ru: 'Запрос отменён', en: 'The request is cancelled' },
} as const;

/** Declines (by the person asked) or cancels (by the requester) a pending request. */
export async function closeRequest(
  ctx: AppContext,
  userId: string,
  id: string,
  to: 'declined' | 'cancelled',
  language: Language,
): Promise<AnswerOf<'requestDecline'>> {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const { rows } = await q.query<RequestRow>(`${SELECT_REQUEST} WHERE r.id = $1 FOR UPDATE OF r`, [id]);
    const row = rows[0];
    const allowed =
      to === 'cancelled' ? row?.requester_id === userId : !!row?.payer_id && row.payer_id === userId;
    if (!row || !allowed) throw new AppError('REQUEST_NOT_FOUND');
    const status = statusAt(row, now);
    if (status !== 'pending') throw new AppError(status === 'paid' ? 'REQUEST_PAID' : 'REQUEST_CLOSED');
    await q.query('UPDATE payment_requests SET status = $2, closed_at = $3 WHERE id = $1', [id, to, now]);
    if (to === 'declined')
      await notify(
        q,
        row.requester_id,
        'request',
        'request_declined',
        {
          name: maskedName(row.payer_first ?? '', row.payer_last ?? ''),
          amount: formatMoney(formatAmount(row.amount, row.currency), row.currency, 'ru'),
          amount_en: formatMoney(formatAmount(row.amount, row.currency), row.currency, 'en'),
        },
        now,
      );
  });
  return { status: 'success', message: CLOSED_TEXT[to][language] };
}
