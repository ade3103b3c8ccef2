/**
 * Payouts: money leaving the wallet through the payouts provider, for a withdrawal to a card, a GOST QR
 * payment to a bank account, an СБП transfer by phone (docs/decisions/sbp.md), or a merchant's settlement to
 * its bank account, held out of the merchant's account (docs/decisions/merchants.md#settlement). One life for all:
 *
 *   payOut(ctx, request, answerOf)   a money call (modules/money-calls): the door holds the money toward
 *                                    payout clearing under every rule of the limits, and the payout is
 *                                    recorded 'created' in the same transaction; then, once committed,
 *                                    the destination (the full card number, in memory only) goes to the
 *                                    provider, 'pending' once accepted
 *                                    On an antifraud sign the money is held instead
 *                                    (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): the
 *                                    destination is sealed until the hold ends, and its release records the
 *                                    payout and hands it to the provider, once
 *   settlePayout(ctx, id, outcome)   the provider's answer (webhook, fetch, or a refusal): success posts the
 *                                    hold, failure voids it (the money returns exactly once); repeats change nothing
 *   handlePayoutWebhook(ctx, body)   the signed callback POST /v2/wallet/webhooks/payouts
 *   checkPayout(ctx, id)             a payout's job (jobs.ts): asks the provider about it and settles it when
 *                                    there is an outcome; throws when the provider cannot answer (the job retries)
 *   reconcilePayouts(ctx)            one pass over every open payout that is due (tests, chaos and cluster suites)
 *   payoutReceipt(q, userId, id, language)   the receipt; another user's payout is OPERATION_NOT_FOUND
 *
 * The ledger notifies the user when the money is held (money out) and when it returns (money returned).
 */
import { randomUUID } from 'node:crypto';
import {
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  formatAmount,
  type Language,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { open, payoutsKey, seal } from '../../crypto/sealed.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { type LocalText, type Payment, postHold, voidHold } from '../../ledger/index.ts';
import {
  type PayoutDestination,
  PayoutRejected,
  type PayoutState,
  PayoutUnavailable,
} from '../../providers/payouts/payouts-provider.ts';
import { type AntifraudPayee, type HoldVerdict, payeeKey } from '../antifraud/index.ts';
import { type Confirmer, type IdempotencyScope, moneyCall, onRelease } from '../money-calls/index.ts';

export type Receipt = AnswerOf<'withdrawalReceipt'>;
export type PayoutPurpose = 'withdrawal' | 'payment' | 'settlement';
export type PayoutRecordStatus = 'created' | 'pending' | 'succeeded' | 'failed';

/**
 * How long an accepted payout waits before its job asks the provider about it (a webhook may be lost),
 * and between checks while it is pending: PAYOUT_CHECK_SECONDS, 60 by default.
 */
const checkAfterMs = (ctx: AppContext) => ctx.config.PAYOUT_CHECK_SECONDS * 1000;
export const PAYOUT_QUEUE = 'payout-check';
/**
 * A payout still open this long after it was made needs an operator (the worker asks every minute);
 * so it is also the latest a person is told to expect the money on the card.
 */
export const PAYOUT_STUCK_AFTER_MS = 30 * 60_000;
/** How long a payout may stay unsubmitted (the server stopped between the hold and the provider call). */
export const PAYOUT_SUBMIT_GRACE_MS = 5 * 60_000;
export const REASON_NOT_SUBMITTED = 'Выплата не была передана в банк. Деньги возвращены на счёт';
export const REASON_PROVIDER_REJECTED = 'Выплата отклонена';

export interface PayoutRow {
  id: string;
  user_id: string;
  purpose: PayoutPurpose;
  amount: bigint;
  currency: CurrencyCode;
  destination_type: PayoutDestination['type'];
  destination: string;
  payee_name: string | null;
  /** An СБП payout's bank (kept in payee_details); null for the others. */
  bank_name: string | null;
  hold_transfer_id: string;
  /** The fee held beside the payout toward 'fees' (docs/decisions/sbp.md#fees): 0 and null without one. */
  fee: bigint;
  fee_transfer_id: string | null;
  provider: string;
  provider_ref: string | null;
  status: PayoutRecordStatus;
  failure_reason: string | null;
  created_at: Date;
  /** A settlement's merchant, whose account the hold leaves; null for a person's payout. */
  merchant_id: string | null;
}

const COLUMNS = `id, user_id, merchant_id, purpose, amount, currency, destination_type, destination, payee_name,
  CASE WHEN destination_type = 'sbp' THEN payee_details->>'bank_name' END AS bank_name, hold_transfer_id,
  fee, fee_transfer_id, provider, provider_ref, status, failure_reason, created_at`;

/** A payout as a call asks for it, confirmed with the PIN under the call's idempotency. */
export interface PayoutRequest {
  userId: string;
  /** The PIN or a passkey; a merchant's daily settlement runs on its own (`settlementRun`). */
  confirmation: Confirmer;
  /**
   * A merchant's settlement: the money is held out of this merchant's account (merchants.sql), not the
   * person's; its own account, approved by an operator, is no payee for the antifraud check.
   */
  merchant?: { id: string };
  purpose: PayoutPurpose;
  amount: bigint;
  currency: CurrencyCode;
  /** Where the provider pays: for a card its full number, kept in memory only. */
  destination: PayoutDestination;
  /** What is kept and shown of the destination: a masked card or a bank account. */
  shownDestination: string;
  payeeName: string | null;
  payeeDetails: Record<string, string | null> | null;
  /** The wallet's fee, held with the payout and settled with it (an СБП transfer's: modules/sbp/fees.ts). */
  fee?: bigint;
  /** What the provider's payout says (a GOST code's purpose, or the history's text). */
  providerDescription?: string | null;
  scope: IdempotencyScope;
  /** Closing the wallet: paid out before the current terms are accepted (money-calls). */
  beforeTerms?: true;
  /** Closing the wallet: a payout that cannot wait for a hold is refused with this instead. */
  cannotWait?: (verdict: HoldVerdict) => AppError;
  /** The session that asked, for the antifraud signs (its age), as every outgoing call gives it. */
  sessionId?: string | null;
  language?: Language;
}

/** The payee a payout's destination is, for the antifraud check and for 'paid before'. */
function payeeOf(destination: PayoutDestination, label: string): AntifraudPayee {
  const key =
    destination.type === 'bank_card'
      ? { card: destination.number }
      : destination.type === 'sbp'
        ? { phone: destination.phone }
        : { account: destination.account };
  return { userId: null, ...key, label };
}

/** An СБП payout's bank, as its details keep it. */
const bankNameOf = (destination: PayoutDestination, details: Record<string, string | null> | null) =>
  destination.type === 'sbp' ? (details?.bank_name ?? null) : null;

/**
 * Holds the money and records the payout (one transaction), then hands it to the provider. The
 * answer is made from the payout before the money moves, stored with the key; a repeat gets it.
 */
export async function payOut<A>(
  ctx: AppContext,
  request: PayoutRequest,
  answerOf: (payout: PayoutRow) => A,
): Promise<A> {
  if (/^\d{13,19}$/.test(request.shownDestination)) throw new Error('a payout destination must be masked');
  const { userId, scope } = request;
  const at = ctx.clock.now();
  const payout: PayoutRow = {
    id: randomUUID(),
    user_id: userId,
    purpose: request.purpose,
    amount: request.amount,
    currency: request.currency,
    destination_type: request.destination.type,
    destination: request.shownDestination,
    payee_name: request.payeeName,
    bank_name: bankNameOf(request.destination, request.payeeDetails),
    hold_transfer_id: randomUUID(),
    fee: request.fee ?? 0n,
    fee_transfer_id: request.fee ? randomUUID() : null,
    provider: ctx.payouts.id,
    provider_ref: null,
    status: 'created',
    failure_reason: null,
    created_at: at,
    merchant_id: request.merchant?.id ?? null,
  };
  const description = payoutDescription(payout);
  return moneyCall(ctx, {
    call: scope.call,
    person: userId,
    confirmation: request.confirmation,
    key: scope.key,
    requestHash: scope.requestHash,
    ...(request.beforeTerms ? { beforeTerms: true as const } : {}),
    ...(request.cannotWait ? { cannotWait: request.cannotWait } : {}),
    prepare: () => ({
      answer: answerOf(payout),
      door: request.merchant
        ? {
            door: 'merchantSettle',
            id: payout.hold_transfer_id,
            person: userId,
            merchant: request.merchant.id,
            amount: payout.amount,
            reference: { type: 'payout', id: payout.id },
            description: { debit: description, credit: description },
            at,
          }
        : {
            door: 'pay',
            id: payout.hold_transfer_id,
            payer: userId,
            payee: null,
            currency: payout.currency,
            amount: payout.amount,
            kind: payout.purpose === 'withdrawal' ? 'withdrawal' : 'payment',
            reference: { type: 'payout', id: payout.id },
            description: {
              debit: description,
              credit: description,
              ...(payout.destination_type === 'sbp' ? { way: 'sbp' as const } : {}),
            },
            at,
            rules: ctx.config.levelRulesJson,
            ...(payout.fee_transfer_id
              ? {
                  payoutFee: {
                    amount: payout.fee,
                    id: payout.fee_transfer_id,
                    description: { debit: FEE_DESCRIPTION, credit: FEE_DESCRIPTION },
                  },
                }
              : {}),
          },
    }),
    // The money held and the payout recorded in one transaction, or neither.
    after: async (q, outcome) => {
      if (outcome.outcome === 'created')
        await recordPayout(ctx, q, payout, request.destination, request.payeeDetails);
    },
    committed: () =>
      handOver(ctx, payout, request.destination, request.providerDescription ?? description.ru),
    // Held: what the release records and sends, sealed beside the hold
    // (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
    onHold: async (q, holdId) => {
      const kept: KeptPayout = {
        destination: request.destination,
        shown: request.shownDestination,
        payeeName: request.payeeName,
        payeeDetails: request.payeeDetails,
        providerDescription: request.providerDescription ?? description.ru,
      };
      await q.query(
        'INSERT INTO payout_destinations (payout_id, hold_id, sealed, created_at) VALUES ($1, $2, $3, $4)',
        [payout.id, holdId, sealKept(ctx, payout.id, kept), at],
      );
    },
    // A card or an account is judged as a person is: the fraud database, the trusted person, the signs.
    ...(request.merchant
      ? {}
      : {
          antifraud: {
            payee: payeeOf(request.destination, request.payeeName ?? request.shownDestination),
            amount: payout.amount,
            currency: payout.currency,
            sessionId: request.sessionId ?? null,
            language: request.language ?? 'ru',
          },
        }),
  });
}

/** What a held payout keeps for its release: sealed, for the card's number and the account are in it. */
interface KeptPayout {
  destination: PayoutDestination;
  shown: string;
  payeeName: string | null;
  payeeDetails: Record<string, string | null> | null;
  providerDescription: string;
}

function sealKept(ctx: AppContext, payoutId: string, kept: KeptPayout): Buffer {
  return seal(payoutsKey(ctx.config.PAYOUTS_KEY), Buffer.from(JSON.stringify(kept)), `payout:${payoutId}`);
}

function openKept(ctx: AppContext, payoutId: string, sealed: Buffer): KeptPayout {
  const plain = open(payoutsKey(ctx.config.PAYOUTS_KEY), sealed, `payout:${payoutId}`);
  return JSON.parse(plain.toString('utf8')) as KeptPayout;
}

const payoutIdOf = (door: Payment): string | null =>
  door.reference?.type === 'payout' ? door.reference.id : null;

/**
 * A held withdrawal's or GOST payment's release
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): beside the door that holds the money toward
 * payout clearing, the sealed destination is opened and deleted and the payout recorded 'created'; after the
 * commit it goes to the provider, once (only the release that won the hold's row gets there; a crash before
 * leaves it 'created' for the worker, which returns the money).
 * A QR payment to a wallet user shares the call's name and has nothing here.
 */
const payoutRelease = {
  after: async (q: Queryable, door: Payment, ctx: AppContext) => {
    const payoutId = payoutIdOf(door);
    if (!payoutId) return undefined;
    const { rows } = await q.query<{ sealed: Buffer }>(
      'DELETE FROM payout_destinations WHERE payout_id = $1 RETURNING sealed',
      [payoutId],
    );
    if (!rows[0]) throw new Error(`payout ${payoutId}: its sealed destination is gone`);
    const kept = openKept(ctx, payoutId, Buffer.from(rows[0].sealed));
    const payout: PayoutRow = {
      id: payoutId,
      user_id: door.payer,
      purpose: door.kind === 'withdrawal' ? 'withdrawal' : 'payment',
      amount: door.amount,
      currency: door.currency,
      destination_type: kept.destination.type,
      destination: kept.shown,
      payee_name: kept.payeeName,
      bank_name: bankNameOf(kept.destination, kept.payeeDetails),
      hold_transfer_id: door.id,
      fee: door.payoutFee?.amount ?? 0n,
      fee_transfer_id: door.payoutFee?.id ?? null,
      provider: ctx.payouts.id,
      provider_ref: null,
      status: 'created',
      failure_reason: null,
      created_at: door.at,
      merchant_id: null,
    };
    await recordPayout(ctx, q, payout, kept.destination, kept.payeeDetails);
    return () => handOver(ctx, payout, kept.destination, kept.providerDescription);
  },
  closed: async (q: Queryable, door: Payment) => {
    const payoutId = payoutIdOf(door);
    if (payoutId) await q.query('DELETE FROM payout_destinations WHERE payout_id = $1', [payoutId]);
  },
};
onRelease('withdrawal', payoutRelease);
onRelease('qrPayment', payoutRelease);
onRelease('sbpTransfer', payoutRelease);

/** An СБП payout's phone, sealed for its person's 'repeat' (docs/decisions/sbp.md#saved-payees-and-repeat). */
const phoneContext = (payoutId: string) => `payout-phone:${payoutId}`;

async function recordPayout(
  ctx: AppContext,
  q: Queryable,
  payout: PayoutRow,
  destination: PayoutDestination,
  payeeDetails: Record<string, string | null> | null,
): Promise<void> {
  const payee = payeeKey(ctx, payeeOf(destination, ''));
  const sealedPhone =
    destination.type === 'sbp'
      ? seal(payoutsKey(ctx.config.PAYOUTS_KEY), Buffer.from(destination.phone), phoneContext(payout.id))
      : null;
  await q.query(
    `INSERT INTO payouts (id, user_id, purpose, amount, currency, destination_type, destination, payee_name,
       payee_details, hold_transfer_id, provider, status, created_at, updated_at, next_check_at, payee_key,
       fee, fee_transfer_id, sealed_phone, merchant_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'created', $12, $12, $13, $14, $15, $16, $17, $18)`,
    [
      payout.id,
      payout.user_id,
      payout.purpose,
      payout.amount,
      payout.currency,
      payout.destination_type,
      payout.destination,
      payout.payee_name,
      payeeDetails,
      payout.hold_transfer_id,
      payout.provider,
      payout.created_at,
      new Date(payout.created_at.getTime() + PAYOUT_SUBMIT_GRACE_MS),
      payee,
      payout.fee,
      payout.fee_transfer_id,
      sealedPhone,
      payout.merchant_id,
    ],
  );
}

async function findPayout(q: Queryable, id: string, lock = false): Promise<PayoutRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const { rows } = await q.query<PayoutRow>(
    `SELECT ${COLUMNS} FROM payouts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Records what the provider answered about an accepted payout; a final answer settles it. */
async function applyProviderState(ctx: AppContext, payoutId: string, state: PayoutState): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.query(
    `UPDATE payouts SET provider_ref = coalesce(provider_ref, $2),
       status = CASE WHEN status = 'created' THEN 'pending' ELSE status END,
       updated_at = $3, next_check_at = CASE WHEN status IN ('created', 'pending') THEN $4 ELSE next_check_at END
     WHERE id = $1`,
    [payoutId, state.providerId, now, new Date(now.getTime() + checkAfterMs(ctx))],
  );
  if (state.status === 'succeeded') await settlePayout(ctx, payoutId, { outcome: 'succeeded' });
  if (state.status === 'canceled')
    await settlePayout(ctx, payoutId, {
      outcome: 'failed',
      reason: state.reason ?? REASON_PROVIDER_REJECTED,
    });
}

/**
 * Handed to the provider, then its job: asked about when a webhook may have been lost
 * (docs/decisions/jobs.md#one-job-system).
 */
async function handOver(
  ctx: AppContext,
  payout: PayoutRow,
  destination: PayoutDestination,
  description: string,
): Promise<void> {
  const answered = await submitPayout(ctx, payout, destination, description);
  await sendPayoutCheck(ctx, payout.id, answered ? checkAfterMs(ctx) : PAYOUT_SUBMIT_GRACE_MS);
}

/**
 * Hands the payout to the provider, after the hold was committed. A refusal releases the hold at once;
 * an unknown outcome (network, 5xx) leaves the payout 'created' for its job to find out (answers false).
 * Never throws: the user's request has already succeeded (the money is held, the receipt says pending).
 */
async function submitPayout(
  ctx: AppContext,
  payout: PayoutRow,
  destination: PayoutDestination,
  description: string,
): Promise<boolean> {
  try {
    const state = await ctx.payouts.payout({
      reference: payout.id,
      idempotenceKey: `payout:${payout.id}`,
      amount: payout.amount,
      currency: payout.currency,
      destination,
      description,
    });
    await applyProviderState(ctx, payout.id, state);
    return true;
  } catch (error) {
    if (error instanceof PayoutRejected) {
      await settlePayout(ctx, payout.id, { outcome: 'failed', reason: REASON_PROVIDER_REJECTED });
      return true;
    }
    // Unknown outcome: the job asks the provider later (error messages never carry the card number).
    const detail = error instanceof PayoutUnavailable ? error.message : (error as Error).name;
    console.warn(`payout ${payout.id} not confirmed by the provider: ${detail}`);
    return false;
  }
}

/** Puts a payout's check on its queue (one waiting per payout); a failure to do so only warns. */
export async function sendPayoutCheck(ctx: AppContext, payoutId: string, afterMs: number): Promise<void> {
  await ctx.jobs
    .send(
      PAYOUT_QUEUE,
      { payout_id: payoutId },
      {
        startAfterSeconds: Math.max(0, afterMs / 1000),
        singletonKey: payoutId,
      },
    )
    .catch((error: Error) => console.warn(`payout ${payoutId}: check not queued (${error.message})`));
}

/**
 * Settles a payout once: 'succeeded' posts its hold, 'failed' voids it; `alongside` writes with it. A repeat of the same outcome
 * changes nothing; a contradicting late outcome is ignored (a settled payout never changes).
 * Answers whether this call changed anything.
 */
export async function settlePayout(
  ctx: AppContext,
  payoutId: string,
  result: { outcome: 'succeeded' } | { outcome: 'failed'; reason: string },
  providerRef?: string,
  alongside?: (q: Queryable, payout: PayoutRow) => Promise<void>,
): Promise<boolean> {
  return ctx.db.tx(async (q) => {
    const payout = await findPayout(q, payoutId, true);
    if (!payout) throw new AppError('OPERATION_NOT_FOUND');
    if (payout.status === 'succeeded' || payout.status === 'failed') return false;
    // What else the settlement writes (an operator's audit line), in its transaction.
    await alongside?.(q, payout);
    const at = ctx.clock.now();
    // The fee goes the payout's way: taken when it is paid, returned with it when it fails.
    const settle = result.outcome === 'succeeded' ? postHold : voidHold;
    await settle(q, payout.hold_transfer_id, at);
    if (payout.fee_transfer_id) await settle(q, payout.fee_transfer_id, at);
    await q.query(
      `UPDATE payouts SET status = $2, failure_reason = $3, provider_ref = coalesce(provider_ref, $4),
         updated_at = $5, settled_at = $5, next_check_at = NULL WHERE id = $1`,
      [payoutId, result.outcome, result.outcome === 'failed' ? result.reason : null, providerRef ?? null, at],
    );
    return true;
  });
}

/** The provider's signed callback. Unknown payouts are OPERATION_NOT_FOUND (the provider may retry). */
export async function handlePayoutWebhook(ctx: AppContext, body: BodyOut<'payoutsWebhook'>): Promise<void> {
  const payout = await findPayout(ctx.db, body.reference);
  if (!payout) throw new AppError('OPERATION_NOT_FOUND');
  // A callback must name the provider's payout we know; before we stored it, the first one tells us.
  if (payout.provider_ref !== null && payout.provider_ref !== body.payout_id)
    throw new AppError('OPERATION_NOT_FOUND', {}, 'payout id does not match the reference');
  if (body.event === 'payout.succeeded')
    await settlePayout(ctx, payout.id, { outcome: 'succeeded' }, body.payout_id);
  else
    await settlePayout(
      ctx,
      payout.id,
      { outcome: 'failed', reason: body.reason ?? REASON_PROVIDER_REJECTED },
      body.payout_id,
    );
}

/**
 * Asks the provider about an open payout and settles it when the provider has an outcome: 'settled',
 * 'pending' (ask again later) or 'closed' (settled already, or unknown). Throws when the provider
 * cannot answer, or never confirmed a payout it cannot look up (an operator's case): a job retries.
 */
export async function checkPayout(ctx: AppContext, id: string): Promise<'settled' | 'pending' | 'closed'> {
  const payout = await findPayout(ctx.db, id);
  if (!payout || payout.status === 'succeeded' || payout.status === 'failed') return 'closed';
  return checkOpenPayout(ctx, payout);
}

async function checkOpenPayout(
  ctx: AppContext,
  payout: PayoutRow,
): Promise<'settled' | 'pending' | 'closed'> {
  let state: PayoutState | null | undefined;
  if (payout.provider_ref) state = await ctx.payouts.fetch(payout.provider_ref);
  else state = ctx.payouts.findByReference ? await ctx.payouts.findByReference(payout.id) : undefined;
  if (state === null) {
    // The provider never received it: nothing was sent, the money goes back (once the submission
    // could no longer be on its way).
    if (ctx.clock.now().getTime() - payout.created_at.getTime() < PAYOUT_SUBMIT_GRACE_MS) return 'pending';
    return (await settlePayout(ctx, payout.id, { outcome: 'failed', reason: REASON_NOT_SUBMITTED }))
      ? 'settled'
      : 'closed';
  }
  if (state === undefined)
    throw new Error(`payout ${payout.id} was never confirmed by ${payout.provider}: needs an operator`);
  if (state.status === 'pending') return 'pending';
  await applyProviderState(ctx, payout.id, state);
  return 'settled';
}

/** The open payouts of this provider and when each is due to be asked about (the jobs' start-up catch-up). */
export async function openPayouts(
  ctx: AppContext,
): Promise<Array<{ id: string; next_check_at: Date | null }>> {
  const { rows } = await ctx.db.query<{ id: string; next_check_at: Date | null }>(
    `SELECT id, next_check_at FROM payouts WHERE status IN ('created', 'pending') AND provider = $1
     ORDER BY next_check_at`,
    [ctx.payouts.id],
  );
  return rows;
}

/**
 * One pass over open payouts whose check time has come, for tests and the chaos and cluster suites
 * (runPayoutWorkerOnce): each row is claimed by pushing its time forward in a conditional UPDATE, which
 * another instance's pass re-checks once the first commits, so no two passes ask about one payout.
 * Answers how many payouts it settled.
 */
export async function reconcilePayouts(ctx: AppContext, batch = 20): Promise<number> {
  const now = ctx.clock.now();
  const { rows: due } = await ctx.db.query<PayoutRow>(
    `UPDATE payouts SET next_check_at = $2
     WHERE id IN (SELECT id FROM payouts
                  WHERE status IN ('created', 'pending') AND next_check_at <= $1 AND provider = $3
                  ORDER BY next_check_at LIMIT ${batch})
       AND status IN ('created', 'pending') AND next_check_at <= $1
     RETURNING ${COLUMNS}`,
    [now, new Date(now.getTime() + checkAfterMs(ctx)), ctx.payouts.id],
  );
  let settled = 0;
  for (const payout of due) {
    try {
      if ((await checkOpenPayout(ctx, payout)) === 'settled') settled += 1;
    } catch (error) {
      console.warn(`payout ${payout.id} check failed: ${(error as Error).message}`);
    }
  }
  return settled;
}

/**
 * How operators read a payout's destination (the back office's payouts and reconciliation): a masked card or
 * an account as kept, an СБП payout as 'СБП · <bank> · <masked phone>' (docs/decisions/sbp.md#sending-by-sbp).
 */
export function shownDestinationSql(alias: string): string {
  return `CASE WHEN ${alias}.destination_type = 'sbp'
    THEN 'СБП · ' || coalesce(${alias}.payee_details->>'bank_name', '') || ' · ' || ${alias}.destination
    ELSE ${alias}.destination END`;
}

/**
 * 'Повторить' of the person's own СБП transfer (its hold's transfer id): the phone opened, the bank and the
 * amount; null for anything else.
 */
export async function sbpRepeatOf(
  ctx: AppContext,
  userId: string,
  transferId: string,
): Promise<{
  phone: string;
  bank: { id: string; name: string };
  amount: bigint;
  name: string | null;
} | null> {
  const { rows } = await ctx.db.query<{
    id: string;
    sealed_phone: Buffer | null;
    bank_id: string;
    bank_name: string;
    amount: bigint;
    payee_name: string | null;
  }>(
    `SELECT id, sealed_phone, payee_details->>'bank_id' AS bank_id, payee_details->>'bank_name' AS bank_name,
       amount, payee_name
     FROM payouts WHERE hold_transfer_id = $1 AND user_id = $2 AND destination_type = 'sbp'`,
    [transferId, userId],
  );
  const row = rows[0];
  if (!row?.sealed_phone) return null;
  const phone = open(payoutsKey(ctx.config.PAYOUTS_KEY), Buffer.from(row.sealed_phone), phoneContext(row.id));
  return {
    phone: phone.toString('utf8'),
    bank: { id: row.bank_id, name: row.bank_name },
    amount: BigInt(row.amount),
    name: row.payee_name,
  };
}

// ---------- receipts ----------

const RECEIPT_STATUS: Record<PayoutRecordStatus, Receipt['status']> = {
  created: 'pending',
  pending: 'pending',
  succeeded: 'complete',
  failed: 'failed',
};

export function payoutDescription(
  payout: Pick<PayoutRow, 'purpose' | 'destination' | 'destination_type' | 'payee_name' | 'bank_name'>,
): LocalText {
  if (payout.destination_type === 'sbp') {
    const bank = payout.bank_name ?? '';
    return {
      ru: `Перевод по СБП: ${bank}, ${payout.destination}`,
      en: `SBP transfer: ${bank}, ${payout.destination}`,
    };
  }
  if (payout.purpose === 'withdrawal')
    return { ru: `Вывод на карту ${payout.destination}`, en: `Withdrawal to card ${payout.destination}` };
  if (payout.purpose === 'settlement')
    return {
      ru: `Вывод на расчётный счёт ${payout.destination}`,
      en: `Settlement to account ${payout.destination}`,
    };
  const payee = payout.payee_name ?? payout.destination;
  return { ru: `Оплата по QR-коду: ${payee}`, en: `QR payment: ${payee}` };
}

/** What the person's history calls a payout's fee (an СБП transfer's is the only one today). */
const FEE_DESCRIPTION: LocalText = { ru: 'Комиссия за перевод по СБП', en: 'SBP transfer fee' };

export function payoutReceiptOf(payout: PayoutRow, language: Language): Receipt {
  return {
    id: payout.id,
    // A settlement is money out to a bank account, as a withdrawal is.
    kind: payout.purpose === 'settlement' ? 'withdrawal' : payout.purpose,
    status: RECEIPT_STATUS[payout.status],
    amount: formatAmount(payout.amount, payout.currency),
    currency_code: payout.currency,
    created_at: payout.created_at.toISOString(),
    description: payoutDescription(payout)[language],
    counterparty: payout.payee_name,
    card: payout.destination_type === 'bank_card' ? payout.destination : null,
    failure_reason: payout.failure_reason,
    ...(payout.fee > 0n ? { fee: formatAmount(payout.fee, payout.currency) } : {}),
  };
}

/** The user's own payout (withdrawal or QR payment to a bank account); anyone else's is OPERATION_NOT_FOUND. */
export async function payoutReceipt(
  q: Queryable,
  userId: string,
  id: string,
  language: Language,
): Promise<Receipt> {
  const payout = await findPayout(q, id);
  if (!payout || payout.user_id !== userId) throw new AppError('OPERATION_NOT_FOUND');
  return payoutReceiptOf(payout, language);
}
