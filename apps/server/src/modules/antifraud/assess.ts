/**
 * The one antifraud check of an outgoing money call
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person), asked by the money-call pipeline before the
 * door:
 *   1. the fraud database (the provider) and the operators' local list, for every amount: a listed
 *      recipient is refused and the refusal recorded;
 *   2. the trusted person, when one is in force: from their threshold (and a new payee, if chosen)
 *      the operation waits for their approval;
 *   3. the signs, from ANTIFRAUD_AMOUNT_FLOOR in roubles only: a new session or a recent security
 *      change with a new payee, an amount over three times the person's largest in 90 days, many new
 *      payees within an hour; and, under the floor, a new session whose payments to new payees add up
 *      to the floor. A payee is a person, a card or a bank account alike; what the session judged
 *      did itself never makes a payee known or an amount usual (payments count from before it, or
 *      older than 24 hours).
 * Everyday payments read nothing (watch.ts knows the local list and who has no trusted person);
 * the signs' read runs only from the floor, from a session younger than 24 hours, or for a trusted
 * person's new-payee rule.
 */
import { createHmac } from 'node:crypto';
import type { CurrencyCode, HoldReason, Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { batchedRead } from '../../db/batch.ts';
import { isDb } from '../../db/client.ts';
import { hintsPerDatabase } from '../../db/hints.ts';
import { AppError } from '../../errors.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import type { FraudDbProvider, FraudMatch } from '../../providers/fraud-db/fraud-db-provider.ts';
import { createFraudDbProvider } from '../../providers/fraud-db/index.ts';
import { maskCard } from '../../providers/payouts/payouts-provider.ts';
import { antifraudWatch, LIST_IN_FORCE, type ListedRecipient } from './watch.ts';

/** What the pipeline tells the check about a money call's payee. */
export interface AntifraudPayee {
  /** The wallet user paid, or null (a card, a bank account, a merchant). */
  userId: string | null;
  /** A merchant paid: a payee of its own, whatever bank account it settles to. */
  merchantId?: string | null;
  phone?: string | null;
  /** The card's 16 digits, in memory only. */
  card?: string | null;
  account?: string | null;
  /** How the person reads the payee: 'Иван П.', a masked card, an account. */
  label: string;
}

export interface AntifraudCall {
  payee: AntifraudPayee;
  amount: bigint;
  currency: CurrencyCode;
  /** The session that asked (its age is a sign), when the call came from one. */
  sessionId?: string | null;
  language: Language;
}

export interface HoldVerdict {
  status: 'held' | 'awaiting_approval';
  reasons: HoldReason[];
  /** The trusted person who decides, for 'awaiting_approval'. */
  approverId: string | null;
  /** Their masked name and threshold in minor units of roubles, so the reasons can name them. */
  approver?: { name: string; threshold: bigint };
}

/**
 * Signs' windows and figures (documented in docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
 */
export const SIGNS = {
  newSessionHours: 24,
  securityChangeHours: 24,
  usualDays: 90,
  usualTimes: 3n,
  newPayeesWindowMinutes: 60,
  /** New payees within the window, this one included, that make 'many'. */
  manyNewPayees: 3,
} as const;

const providers = new WeakMap<object, FraudDbProvider>();
function fraudDbOf(ctx: AppContext): FraudDbProvider {
  if (ctx.fraudDb) return ctx.fraudDb;
  let provider = providers.get(ctx.config);
  if (!provider) {
    provider = createFraudDbProvider(ctx.config);
    providers.set(ctx.config, provider);
  }
  return provider;
}

export function signsEnabled(ctx: AppContext): boolean {
  return (ctx.config.ANTIFRAUD_SIGNS ?? (ctx.config.WALLET_ENV === 'test' ? 'off' : 'on')) === 'on';
}

/** The floor in kopecks. */
export function amountFloor(ctx: AppContext): bigint {
  return amountOf(ctx.config.ANTIFRAUD_AMOUNT_FLOOR, 'RUB');
}

/** A card on the local list is kept only as this keyed hash, never its number. */
export function cardKey(ctx: AppContext, card: string): string {
  return createHmac('sha256', ctx.config.PIN_KEY).update(`fraud-list-card:${card}`).digest('hex');
}

/**
 * Who a payee is, for 'paid before': a wallet user's id, a card's or a phone's keyed hash, a bank account; kept on
 * each payout (`payouts.payee_key`), so a card or an account never paid before is a new payee.
 */
export function payeeKey(
  ctx: AppContext,
  payee: Pick<AntifraudPayee, 'userId' | 'merchantId' | 'card' | 'account' | 'phone'>,
): string {
  if (payee.userId) return payee.userId;
  if (payee.merchantId) return `merchant:${payee.merchantId}`;
  if (payee.card) return `card:${cardKey(ctx, payee.card)}`;
  // An СБП payee's phone is kept masked on its payout, so 'paid before' keeps only its keyed hash.
  if (payee.phone)
    return `phone:${createHmac('sha256', ctx.config.PIN_KEY).update(`payee-phone:${payee.phone}`).digest('hex')}`;
  return `account:${payee.account ?? ''}`;
}

/** When each session began: it never changes, so an instance keeps it once read. */
const sessionStarts = hintsPerDatabase<Date>({ max: 100_000, ttlMs: 24 * 3_600_000 });
const sessionStartsRead = batchedRead<string, { id: string; created_at: Date }>(async (q, ids) => {
  const { rows } = await q.query<{ id: string; created_at: Date }>(
    'SELECT id, created_at FROM sessions WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
});

async function sessionStart(ctx: AppContext, sessionId: string): Promise<Date | null> {
  const db = isDb(ctx.db) ? ctx.db : null;
  const known = db ? sessionStarts(db).get(sessionId) : undefined;
  if (known) return known;
  const row = await sessionStartsRead(ctx.db, sessionId);
  if (row && db) sessionStarts(db).set(sessionId, row.created_at);
  return row?.created_at ?? null;
}

interface FirstRow {
  local: FraudMatch | null;
  amount_rub: string;
  trusted_id: string | null;
  threshold: string | null;
  new_payees: boolean | null;
  trusted_first?: string | null;
  trusted_last?: string | null;
}

interface SignsRow {
  security_changed_at: Date | null;
  known_payee: boolean;
  largest: string | null;
  new_payees: number;
  /** What the session sent to payees new to it, in roubles (a fresh session's only). */
  sent_new: string;
}

/**
 * The check: throws RECIPIENT_FRAUD_LISTED (recorded) for a listed recipient after `confirmed` has
 * proved the person (so a wrong PIN hears only about its PIN); answers a hold's verdict, or null when
 * the money may leave now. `holdable` is false for calls whose release the pipeline cannot make yet
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): only the fraud database applies to them.
 */
export async function assessCall(
  ctx: AppContext,
  person: string,
  call: AntifraudCall,
  options: { callName: string; holdable: boolean },
  confirmed: () => Promise<void>,
): Promise<HoldVerdict | null> {
  const at = ctx.clock.now();
  const { payee } = call;
  const money = { ...options, amount: call.amount, currency: call.currency };
  const card = payee.card ? cardKey(ctx, payee.card) : null;
  const first = await firstFacts(
    ctx,
    person,
    { phone: payee.phone ?? null, account: payee.account ?? null, card },
    money,
    at,
  );
  const listed = first.local ?? (await fraudDbOf(ctx).listed(payee));
  if (listed) {
    await confirmed();
    await ctx.db.query(
      `INSERT INTO fraud_refusals (user_id, call_name, recipient_kind, recipient, source, amount, currency, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        person,
        money.callName,
        listed,
        listed === 'card' ? maskCard(payee.card!) : listed === 'phone' ? payee.phone : payee.account,
        first.local ? 'local' : fraudDbOf(ctx).id,
        money.amount,
        money.currency,
        at,
      ],
    );
    throw new AppError('RECIPIENT_FRAUD_LISTED');
  }
  if (!money.holdable) return null;

  const amountRub = BigInt(first.amount_rub);
  const trusted = first.trusted_id !== null;
  const signs = signsEnabled(ctx);
  const reachesFloor = signs && amountRub >= amountFloor(ctx);
  const trustedNewPayees = trusted && first.new_payees === true;
  const hoursAgo = (time: Date | null, hours: number) =>
    time !== null && at.getTime() - time.getTime() < hours * 3_600_000;
  const started = signs && call.sessionId ? await sessionStart(ctx, call.sessionId) : null;
  const freshSession = hoursAgo(started, SIGNS.newSessionHours);
  // Under the floor a fresh session is summed: many small payments to new payees are one large one.
  // All it sent out is asked first (one index range): below the floor with this one, nothing to sum.
  const summed =
    freshSession &&
    !reachesFloor &&
    BigInt(await sentSince(ctx, person, started!)) + amountRub >= amountFloor(ctx);
  if (!reachesFloor && !trusted && !summed) return null;

  const reasons: HoldReason[] = [];
  let knownPayee = true;
  if (reachesFloor || trustedNewPayees || summed) {
    const facts = await signsOf(ctx, person, payeeKey(ctx, payee), freshSession ? started : null, at);
    knownPayee = facts.known_payee;
    if (summed && !knownPayee && BigInt(facts.sent_new) + amountRub >= amountFloor(ctx))
      reasons.push('new_session');
    if (reachesFloor) {
      if (!knownPayee && freshSession) reasons.push('new_session');
      if (!knownPayee && hoursAgo(facts.security_changed_at, SIGNS.securityChangeHours))
        reasons.push('security_change');
      if (amountRub > BigInt(facts.largest ?? '0') * SIGNS.usualTimes) reasons.push('large_amount');
      if (!knownPayee && facts.new_payees + 1 >= SIGNS.manyNewPayees) reasons.push('many_new_payees');
    }
  }
  if (trusted) {
    const byThreshold = amountRub >= BigInt(first.threshold ?? '0');
    const byNewPayee = trustedNewPayees && !knownPayee;
    if (byThreshold || byNewPayee) {
      // The trusted person decides; the signs that fired travel with the request as its reasons.
      const own: HoldReason[] = byThreshold ? ['trusted_threshold'] : ['trusted_new_payee'];
      const approver = {
        name: maskedName(first.trusted_first ?? '', first.trusted_last ?? ''),
        threshold: BigInt(first.threshold ?? '0'),
      };
      return {
        status: 'awaiting_approval',
        reasons: [...own, ...reasons],
        approverId: first.trusted_id,
        approver,
      };
    }
  }
  return reasons.length > 0 ? { status: 'held', reasons, approverId: null } : null;
}

/**
 * What every check asks first: the recipient on the local list, the amount in roubles and the trusted
 * person in force. Known to this instance (watch.ts) for a payment in roubles of a person without a
 * trusted person; otherwise one read.
 */
async function firstFacts(
  ctx: AppContext,
  person: string,
  recipient: ListedRecipient,
  money: { amount: bigint; currency: CurrencyCode },
  at: Date,
): Promise<FirstRow> {
  const known = antifraudWatch(ctx.db);
  if (known && money.currency === 'RUB' && known.watch.hasNoTrustedPerson(person)) {
    const local = known.watch.listed(recipient);
    if (local !== undefined)
      return {
        local,
        amount_rub: money.amount.toString(),
        trusted_id: null,
        threshold: null,
        new_payees: null,
      };
  }
  const { rows } = await ctx.db.query<FirstRow & { trusted_row: boolean }>(
    `SELECT (SELECT f.kind FROM fraud_list f WHERE ${LIST_IN_FORCE}
         AND ((f.kind = 'phone' AND f.value = $2) OR (f.kind = 'account' AND f.value = $3)
           OR (f.kind = 'card' AND f.value = $4)) LIMIT 1) AS local,
       limits_in_roubles($5::bigint, $6::text)::text AS amount_rub,
       t.trusted_id,
       (CASE WHEN t.change = 'raise' AND t.change_at <= $7 THEN t.pending_threshold ELSE t.threshold END)::text AS threshold,
       CASE WHEN t.change = 'raise' AND t.change_at <= $7 THEN t.pending_new_payees ELSE t.new_payees END AS new_payees,
       EXISTS (SELECT 1 FROM trusted_people r WHERE r.user_id = $1) AS trusted_row,
       tu.first_name AS trusted_first, tu.last_name AS trusted_last
     FROM (SELECT 1) one
     LEFT JOIN trusted_people t ON t.user_id = $1 AND t.status = 'active'
       AND NOT (t.change IS NOT DISTINCT FROM 'remove' AND t.change_at <= $7)
     LEFT JOIN users tu ON tu.id = t.trusted_id`,
    [person, recipient.phone, recipient.account, recipient.card, money.amount, money.currency, at],
  );
  const row = rows[0]!;
  if (known && !row.trusted_row) known.watch.noTrustedPersonRead(person, known.seen);
  return row;
}

/** Everything the person sent out since `since`, in roubles: more than any part of it the signs sum. */
async function sentSince(ctx: AppContext, person: string, since: Date): Promise<string> {
  const { rows } = await ctx.db.query<{ sent: string }>(
    `SELECT coalesce(sum(limits_in_roubles(-e.amount, e.currency)), 0)::text AS sent FROM ledger_entries e
     WHERE e.user_id = $1 AND e.created_at >= $2 AND e.amount < 0`,
    [person, since],
  );
  return rows[0]?.sent ?? '0';
}

/**
 * The signs' facts in one read: a security change, the payee, the usual amounts, the new payees of the
 * hour, and what a fresh session (`started`, else null) sent to payees new to it. A payee is known and
 * an amount usual only from payments before `cutoff` (the session's start, or 24 hours ago if later)
 * or released from a hold, so the session judged cannot prime its own signs.
 */
async function signsOf(
  ctx: AppContext,
  person: string,
  payee: string,
  started: Date | null,
  at: Date,
): Promise<SignsRow> {
  const dayAgo = new Date(at.getTime() - SIGNS.newSessionHours * 3_600_000);
  const cutoff = started && started > dayAgo ? started : dayAgo;
  const { rows } = await ctx.db.query<SignsRow>(
    `WITH moved AS (
       SELECT c.user_id::text AS payee, e.created_at, -e.amount AS amount, e.currency, t.id AS movement
       FROM ledger_entries e
       JOIN ledger_transfers t ON t.id = e.transfer_id
       JOIN ledger_accounts c ON c.id = t.credit_account_id
       WHERE e.user_id = $1 AND e.amount < 0 AND e.phase = 'single' AND c.user_id IS NOT NULL AND c.user_id <> $1
       UNION ALL
       SELECT p.payee_key, p.created_at, p.amount, p.currency, p.hold_transfer_id FROM payouts p
       WHERE p.user_id = $1 AND p.payee_key IS NOT NULL AND p.status <> 'failed'
       UNION ALL
       -- A merchant's account is no person's, so its payments are read from their own rows.
       SELECT 'merchant:' || m.merchant_id::text, m.paid_at, m.amount, m.currency, m.transfer_id
       FROM merchant_payments m WHERE m.payer_id = $1 AND m.status = 'succeeded'
     ), paid AS (
       -- A held payment released (the person's SMS code, the trusted person, an operator) was judged:
       -- its payee is known at once and it is not summed again.
       SELECT m.*, EXISTS (SELECT 1 FROM money_holds h WHERE h.movement_id = m.movement) AS vetted FROM moved m
     ), known AS (SELECT DISTINCT payee FROM paid WHERE created_at < $7 OR vetted)
     SELECT u.security_changed_at,
       EXISTS (SELECT 1 FROM known k WHERE k.payee = $2) AS known_payee,
       (SELECT max(limits_in_roubles(-e.amount, e.currency))::text FROM ledger_entries e
         WHERE e.user_id = $1 AND e.amount < 0 AND e.phase IN ('single', 'hold')
           AND e.kind IN ('transfer', 'payment', 'withdrawal') AND e.created_at > $4::timestamptz - make_interval(days => $5)
           AND e.created_at < $7
           AND NOT EXISTS (SELECT 1 FROM ledger_transfers h JOIN ledger_accounts ha ON ha.id = h.credit_account_id
             WHERE h.id = e.transfer_id AND ha.purpose = 'antifraud_hold')) AS largest,
       (SELECT count(DISTINCT p.payee)::integer FROM paid p
         WHERE p.created_at > $4::timestamptz - make_interval(mins => $6)
           AND NOT EXISTS (SELECT 1 FROM paid o WHERE o.payee = p.payee
             AND o.created_at <= $4::timestamptz - make_interval(mins => $6))) AS new_payees,
       (SELECT coalesce(sum(limits_in_roubles(p.amount, p.currency)), 0)::text FROM paid p
         WHERE $3::timestamptz IS NOT NULL AND p.created_at >= $3::timestamptz AND NOT p.vetted
           AND NOT EXISTS (SELECT 1 FROM known k WHERE k.payee = p.payee)) AS sent_new
     FROM users u WHERE u.id = $1`,
    [person, payee, started, at, SIGNS.usualDays, SIGNS.newPayeesWindowMinutes, cutoff],
  );
  return (
    rows[0] ?? {
      security_changed_at: null,
      known_payee: false,
      largest: null,
      new_payees: 0,
      sent_new: '0',
    }
  );
}
