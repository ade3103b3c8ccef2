/**
 * The money-call pipeline (docs/decisions/money-calls.md#one-money-call-pipeline): every call that moves
 * money passes here, and here only are written the confirmation (the PIN or a passkey), the retry when the
 * door does not accept the PIN's proof, idempotent repeats and a refusal's error. A call declares what
 * differs: its name and key, how it was confirmed, the door's arguments and its answer, and what it does
 * beside the money in the same transaction or after the commit.
 *
 *   route -> module (declares a MoneyCall) -> moneyCall / runMoneyCall (this file)
 *         -> ledger openDoor (ledger/doors.ts)
 *         -> ledger_pay | ledger_exchange | ledger_goal | ops_refund | ledger_merchant_refund | ledger_merchant_settle
 *            (db/functions/payments.sql, ops.sql, merchants.sql)
 *
 * Adding a money call is a declaration here plus its SQL (docs/architecture.md has an example).
 * Three calls touch money without a MoneyCall, each for its reason (docs/decisions/money-door.md):
 * - a top-up's start moves no money: it opens an order at the provider, keyed by `keyedCall` and
 *   refused by `refusalError` of this module, and the money comes later, on the provider's word;
 * - `ledger_open` (ledger/index.ts) moves money on a provider's or an operator's word (a top-up's
 *   credit), never on a person's: no PIN and no person's key, its repeat found by
 *   the transfer's id, made of its key;
 * - a hold's approval confirms the trusted person (`checkConfirmation`), then releases the held call
 *   through `runMoneyCall` (modules/holds), as every release does.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { CallHeld, isHeldAnswer } from '../../http/held.ts';
import {
  type Door,
  type DoorOutcome,
  type MoneyCallName,
  newTransferId,
  openDoor,
  type Payment,
  type Refusal,
} from '../../ledger/index.ts';
import {
  type AntifraudCall,
  assessCall,
  type HoldVerdict,
  heldAnswerOf,
  holdWaitsFor,
  type NewHold,
  recordHold,
  tellHeld,
} from '../antifraud/index.ts';
import type { PinSigner } from '../auth/index.ts';
import { requireAcceptedTerms } from '../terms/index.ts';
import { type Confirmation, confirmer } from './confirmation.ts';
import { claimKey, repeatedAnswer, type StoredAnswer } from './idempotency.ts';
import { refusalError } from './refusals.ts';
import { releaseWorkOf } from './release.ts';

/**
 * What the key keeps of an answer its transfer holds: the transfer's id (`kept`) and what the transfer
 * does not say (the counterparty's name, the answer's language).
 */
export interface KeptAnswer {
  kept: string;
  [part: string]: string;
}

function isKept(answer: unknown): answer is KeptAnswer {
  return !!answer && typeof answer === 'object' && typeof (answer as KeptAnswer).kept === 'string';
}

/** A repeat's answer: the first call's, made again from its transfer where only a part was kept. */
async function firstAnswer<A>(
  q: Queryable,
  call: MoneyCall<A>,
  first: StoredAnswer<A | KeptAnswer>,
): Promise<A> {
  const answer = repeatedAnswer(call, first);
  return isKept(answer) && call.answerOfKept ? call.answerOfKept(q, answer) : (answer as A);
}

/**
 * Who confirmed a call: the person with the PIN or a passkey; a schedule's run, authorised by its
 * PIN-confirmed standing order (payments.sql checks it); an operator, whose door decides four eyes;
 * the release of a held operation the person's PIN confirmed when it was held (payments.sql checks it).
 */
export type Confirmer =
  | Confirmation
  | { standingOrder: true }
  | { operator: true }
  // A merchant's refund, made with its API key: its door checks the merchant and the payment (merchants.sql).
  | { merchantKey: true }
  // A merchant's daily settlement: its own money to its own approved account; its door knows the run (merchants.sql).
  | { settlementRun: true }
  | { released: true }
  // A savings goal's closing only returns the owner's money: its door asks no PIN (goals.sql).
  | { ownMoney: true };

/** What a call does before its door, in the door's transaction, when its own row says no. */
export type Before = undefined | { refuse: AppError } | { skip: true };

export interface MoneyCall<A> {
  /** The call's name: the scope of its Idempotency-Key. */
  call: MoneyCallName;
  /** Whose key it is: the person paying, or the operator approving. */
  person: string;
  confirmation: Confirmer;
  /** The client's Idempotency-Key, or null. */
  key: string | null;
  /** The request's fingerprint (`requestHash`): a repeated key with another request is a conflict. */
  requestHash: string;
  /**
   * The door's arguments and the call's answer, once the signer is known (their name is in texts) and
   * after `before` has read the call's own row.
   */
  prepare(signer: PinSigner | null): { door: Door; answer: A; kept?: KeptAnswer };
  /**
   * A call whose answer its transfer already holds (a payment's receipt) keeps only `kept` with its key
   * (docs/performance.md#what-each-change-gained) and makes the same answer again from it on a repeat.
   */
  answerOfKept?(q: Queryable, kept: KeptAnswer): Promise<A>;
  /**
   * The call's own row, locked in the door's transaction before it: its refusal (a paid request,
   * answered by a repeat's stored answer where the key was used) or a skip (a stale schedule's run).
   */
  before?(q: Queryable): Promise<Before>;
  /** In the same transaction, after the door: what its outcome changes beside the money. */
  after?(q: Queryable, outcome: DoorOutcome): Promise<void>;
  /** After the commit, when the money moved: what follows outside the database. */
  committed?(answer: A): Promise<void>;
  /**
   * In the transaction that held the call's money
   * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person), after the hold's row: what the call keeps
   * for its release (a payout's sealed destination, a schedule's run marked held).
   */
  onHold?(q: Queryable, holdId: string): Promise<void>;
  /** After a refusal, outside the transaction: what it also tells (a lookup counted). */
  refused?(refusal: Refusal): Promise<void>;
  /**
   * A person's call that goes through before they accept the current terms: closing the wallet pays
   * its balance out to someone who refuses new terms (docs/decisions/account.md#a-persons-account).
   */
  beforeTerms?: true;
  /**
   * An outgoing call's payee for the one antifraud check
   * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person), asked before the door: a listed recipient
   * is refused; on a sign, or for the trusted person, the money is held and the call answers 202
   * (http/held.ts). A call with `committed` or `after` and no release work (release.ts) is only refused by
   * the fraud database. A schedule's run is checked too, with no one to confirm.
   */
  antifraud?: AntifraudCall;
  /**
   * A call that pays its own row once (a request, a merchant's payment), named by its door's reference:
   * while an earlier pay of the row waits in a hold, another is refused (HOLD_WAITING), not held again.
   */
  paysOnce?: true;
  /**
   * A call that cannot wait in a hold (closing the wallet, which ends the wallet after it): judged
   * as any other, and refused with this error where another call would be held.
   */
  cannotWait?: (verdict: HoldVerdict) => AppError;
}

export type MoneyCallResult<A> =
  | { outcome: 'created' | 'repeated'; answer: A }
  | { outcome: 'refused'; refusal: Refusal; error: AppError }
  | { outcome: 'skipped' };

/** How many proofs a call may offer: a PIN changed twice during one call is refused as a storm. */
const PROOF_TRIES = 3;

/** A money call that answers or throws its error: what the routes use. */
export async function moneyCall<A>(ctx: AppContext, call: MoneyCall<A>): Promise<A> {
  const result = await runMoneyCall(ctx, call);
  if (result.outcome === 'refused') throw result.error;
  if (result.outcome === 'skipped') throw new Error(`money call ${call.call} skipped without a refusal`);
  return result.answer;
}

/** A money call with its outcome as a value: what a background run (a schedule) records. */
export async function runMoneyCall<A>(ctx: AppContext, call: MoneyCall<A>): Promise<MoneyCallResult<A>> {
  const confirm =
    'standingOrder' in call.confirmation ||
    'operator' in call.confirmation ||
    'merchantKey' in call.confirmation ||
    'settlementRun' in call.confirmation ||
    'released' in call.confirmation ||
    'ownMoney' in call.confirmation
      ? null
      : confirmer(ctx, call.person, call.confirmation);
  // A person's money waits for the current terms (a schedule's run and an operator's refund are not theirs now).
  if (confirm && !call.beforeTerms) await requireAcceptedTerms(ctx, call.person);
  // A schedule's run is checked as its payment would be: its standing order stands for the person.
  const standing = 'standingOrder' in call.confirmation;
  const held =
    call.antifraud && (confirm || standing)
      ? await antifraudOf(ctx, call, confirm ? confirm.check : async () => {})
      : null;
  let proof = confirm ? await confirm.first() : null;
  for (let tries = 1; ; tries++) {
    let answer!: A;
    let hold = null as NewHold | null;
    const open = async (q: Queryable) => {
      const prepared = call.prepare(proof?.signer ?? null);
      answer = prepared.answer;
      let door = prepared.door;
      // A row paid once is not paid again while its earlier pay waits in a hold (`paysOnce`).
      if (call.paysOnce && door.door === 'pay' && door.reference)
        if (await holdWaitsFor(q, call.person, call.call, door.reference)) throw new AppError('HOLD_WAITING');
      let stored: unknown = prepared.kept ?? answer;
      if (held && door.door === 'pay') {
        // The money waits toward the antifraud account; the key answers the 202
        // (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
        hold = heldOf(call, held, door, answer);
        stored = held.answer;
        door = {
          ...door,
          id: hold.holdTransferId,
          payee: null,
          toward: 'antifraud_hold',
          // Only the amount waits; a payout's fee is held with the payout when it is released, and a
          // merchant is paid (its fee taken) only then.
          payoutFee: undefined,
          merchant: undefined,
          // A run keeps its standing order's reference, which the door asks for without a PIN (payments.sql).
          reference: standing ? door.reference : { type: 'money_hold', id: hold.id },
          description: heldDescription(door),
        };
      }
      return openDoor(q, door, {
        pinProof: proof?.hash ?? null,
        call: { name: call.call, key: call.key, requestHash: call.requestHash, answer: stored },
      });
    };
    const result: { skipped: true } | { repeated: A } | { outcome: DoorOutcome } =
      call.before || call.after || held
        ? await ctx.db.tx(
            async (q): Promise<{ skipped: true } | { repeated: A } | { outcome: DoorOutcome }> => {
              const before = await call.before?.(q);
              if (before && 'skip' in before) return { skipped: true };
              if (before) return { repeated: await answerOrRefuse(ctx, q, call, before.refuse) };
              const outcome = await open(q);
              // A held call's `after` waits for its release; a refused one hears its refusal (a run's skip).
              if (hold && outcome.outcome === 'created') {
                await recordHold(q, hold);
                await call.onHold?.(q, hold.id);
              } else await call.after?.(q, outcome);
              return { outcome };
            },
          )
        : { outcome: await open(ctx.db) };
    if ('skipped' in result) return { outcome: 'skipped' };
    if ('repeated' in result) return { outcome: 'repeated', answer: result.repeated };
    const { outcome } = result;
    if (outcome.outcome === 'refused' && outcome.refusal.rule === 'pin' && confirm) {
      // The door did not accept the proof (a hint gone stale, a wrong PIN): the PIN is checked and
      // counted now, so a wrong one throws its error; only a PIN changed meanwhile gets past it.
      if (tries === PROOF_TRIES) throw new AppError('RATE_LIMITED');
      proof = await confirm.again();
      continue;
    }
    switch (outcome.outcome) {
      case 'created':
        if (hold && held) {
          await tellHeld(ctx, hold, call.antifraud!.language);
          throw new CallHeld(held.answer);
        }
        await call.committed?.(answer);
        // The first caller gets what every repeat will get: the answer as stored.
        return { outcome: 'created', answer: JSON.parse(JSON.stringify(answer)) as A };
      case 'repeated': {
        const first = await firstAnswer(ctx.db, call, {
          request_hash: outcome.requestHash,
          answer: outcome.answer as A,
        });
        // A repeat of a held call answers the same 202, whatever became of the hold since.
        if (isHeldAnswer(first)) throw new CallHeld(first);
        return { outcome: 'repeated', answer: first };
      }
      case 'refused':
        await call.refused?.(outcome.refusal);
        return {
          outcome: 'refused',
          refusal: outcome.refusal,
          // Without a proof only a schedule's run reaches here refused 'pin': its standing order is gone.
          error:
            outcome.refusal.rule === 'pin'
              ? new AppError('SCHEDULE_NOT_FOUND')
              : refusalError(outcome.refusal),
        };
    }
  }
}

/** A call's verdict with its 202 answer, made once before the door. */
interface Held {
  verdict: HoldVerdict;
  id: string;
  answer: ReturnType<typeof heldAnswerOf>;
}

/** The antifraud check (modules/antifraud), once per call: a listed recipient throws, a sign holds. */
async function antifraudOf<A>(
  ctx: AppContext,
  call: MoneyCall<A>,
  confirmed: () => Promise<unknown>,
): Promise<Held | null> {
  const check = call.antifraud!;
  const verdict = await assessCall(
    ctx,
    call.person,
    check,
    // Holdable when a release can do again what the call does beside its door (release.ts), or
    // judged as if it were, when the call is refused rather than held.
    {
      callName: call.call,
      holdable:
        !!call.cannotWait ||
        (!call.beforeTerms && (!!releaseWorkOf(call.call) || (!call.committed && !call.after))),
    },
    async () => {
      await confirmed();
    },
  );
  if (!verdict) return null;
  if (call.cannotWait) {
    // What it refuses tells no more than a hold would, and only to the person the PIN proved.
    await confirmed();
    throw call.cannotWait(verdict);
  }
  const id = randomUUID();
  return { verdict, id, answer: heldAnswerOf(id, verdict, check.language) };
}

function heldOf<A>(call: MoneyCall<A>, held: Held, door: Payment, answer: A): NewHold {
  return {
    id: held.id,
    userId: call.person,
    callName: call.call,
    kind: door.kind,
    payeeId: door.payee,
    payeeLabel: call.antifraud!.payee.label,
    door,
    answer,
    holdTransferId: newTransferId(),
    verdict: held.verdict,
    at: door.at,
  };
}

/** What the person's history reads of the held money: the operation's own words, marked as held. */
function heldDescription(door: Payment): Payment['description'] {
  const { debit, credit } = door.description;
  return {
    debit: { ru: `Приостановлено: ${debit.ru}`, en: `On hold: ${debit.en}` },
    credit: { ru: `Приостановлено: ${credit.ru}`, en: `On hold: ${credit.en}` },
  };
}

/**
 * A call its own row refuses (a request paid already): a repeat of the call that did it answers as
 * it did, asked of the one store by claiming the key; the error's throw rolls the claim back.
 */
async function answerOrRefuse<A>(
  ctx: AppContext,
  q: Queryable,
  call: MoneyCall<A>,
  refusal: AppError,
): Promise<A> {
  if (call.key !== null) {
    const scope = { userId: call.person, call: call.call, key: call.key, requestHash: call.requestHash };
    const claim = await claimKey<A | null>(q, scope, null, ctx.clock.now());
    if (!claim.claimed) return firstAnswer(q, call, claim.first as StoredAnswer<A>);
  }
  throw refusal;
}

/**
 * The confirmation of a call refused before its door (no such recipient, an old quote), decided
 * first: a wrong PIN hears about its PIN, so no answer tells it anything else.
 */
export async function checkConfirmation(
  ctx: AppContext,
  person: string,
  confirmation: Confirmation,
): Promise<void> {
  await confirmer(ctx, person, confirmation).check();
}
