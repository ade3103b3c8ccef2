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
 *   settlePayout(ctx, id, outcome)   (provider.ts) the provider's answer (webhook, fetch, or a refusal): success posts the
 *                                    hold, failure voids it (the money returns exactly once); repeats change nothing
 *   handlePayoutWebhook(ctx, body)   (provider.ts) the signed callback POST /v2/wallet/webhooks/payouts
 *   checkPayout(ctx, id)             (provider.ts) a payout's job (jobs.ts): asks the provider about it and settles it when
 *                                    there is an outcome; throws when the provider cannot answer (the job retries)
 *   reconcilePayouts(ctx)            (provider.ts) one pass over every open payout that is due (tests, chaos and cluster suites)
 *   payoutReceipt(q, userId, id, language)   (receipts.ts) the receipt; another user's payout is OPERATION_NOT_FOUND
 *
 * The ledger notifies the user when the money is held (money out) and when it returns (money returned).
 */
import { randomUUID } from 'node:crypto';
import type { CurrencyCode, Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { open, payoutsKey, seal } from '../../crypto/sealed.ts';
import type { Queryable } from '../../db/client.ts';
import type { AppError } from '../../errors.ts';
import { newTransferId, type Payment } from '../../ledger/index.ts';
import type { PayoutDestination } from '../../providers/payouts/payouts-provider.ts';
import { type AntifraudPayee, type HoldVerdict, payeeKey } from '../antifraud/index.ts';
import { type Confirmer, type IdempotencyScope, moneyCall, onRelease } from '../money-calls/index.ts';
import { handOver } from './provider.ts';
import { FEE_DESCRIPTION, payoutDescription } from './receipts.ts';
import { PAYOUT_SUBMIT_GRACE_MS, type PayoutPurpose, type PayoutRow, phoneContext } from './store.ts';
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
    hold_transfer_id: newTransferId(),
    fee: request.fee ?? 0n,
    fee_transfer_id: request.fee ? newTransferId() : null,
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
