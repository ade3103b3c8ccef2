/**
 * A merchant's settlements (docs/decisions/merchants.md#settlement): its balance paid out to the bank account
 * of its profile by the payouts module's one path (payOut: the hold, the provider asked once, the payout
 * settled or returned once), the hold taken out of the merchant's ledger account by its own door
 * (ledger_merchant_settle, merchants.sql).
 *
 *   settleNow(ctx, userId, body, options)   POST /v2/wallet/merchant/settlements (PIN or passkey)
 *   settlementsOf(ctx, userId)              GET  /v2/wallet/merchant/settlements
 *   runDailySettlements(ctx)                the daily job: each active merchant's whole available balance
 */
import { type AnswerOf, type BodyOut, formatAmount, type Language, walletClock } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { balanceOf } from '../../ledger/index.ts';
import { amountOf } from '../../policy/amounts.ts';
import { type Confirmer, type IdempotencyScope, requestHash } from '../money-calls/index.ts';
import { payOut, payoutReceiptOf } from '../payouts/index.ts';
import { type MerchantRow, merchantOfUser } from './profile.ts';

type Settlement = AnswerOf<'merchantSettlements'>['results'][number];
type Origin = Settlement['origin'];
export const SETTLEMENT_QUEUE = 'merchant-settlement';
/** How long a settlement account set by its owner waits before it is paid: the antifraud signs' day. */
const ACCOUNT_SETTLES_AFTER_MS = 24 * 3_600_000;
const SETTLEMENT_MADE: Record<Language, string> = {
  ru: 'Деньги отправлены на расчётный счёт',
  en: 'The money is on its way to your bank account',
};

interface SettlementRow {
  id: string;
  amount: bigint;
  status: 'created' | 'pending' | 'succeeded' | 'failed';
  payee_details: { bic?: string; origin?: Origin } | null;
  destination: string;
  failure_reason: string | null;
  created_at: Date;
  settled_at: Date | null;
}

function settlementOf(row: SettlementRow): Settlement {
  return {
    id: row.id,
    status: row.status === 'created' ? 'pending' : row.status,
    amount: formatAmount(BigInt(row.amount), 'RUB'),
    currency: 'RUB',
    bank_bic: row.payee_details?.bic ?? '',
    bank_account: row.destination,
    origin: row.payee_details?.origin ?? 'manual',
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
    settled_at: row.settled_at?.toISOString() ?? null,
  };
}

/**
 * Pays `amount` (or all the merchant has available) to its bank account. The amount read here is only the
 * request's: the door decides under the account's lock whether it is there.
 */
async function settle(
  ctx: AppContext,
  merchant: MerchantRow,
  amount: bigint | null,
  confirmation: Confirmer,
  scope: IdempotencyScope,
  origin: Origin,
  language: Language,
): Promise<AnswerOf<'merchantSettle'>> {
  const whole = amount ?? (await balanceOf(ctx.db, merchant.account_id)).available;
  // A merchant not approved hears so before 'nothing to pay out' (its door says it again under the lock).
  if (merchant.status !== 'active') throw new AppError('MERCHANT_NOT_ACTIVE');
  if (whole <= 0n) throw new AppError('MERCHANT_NOTHING_TO_SETTLE');
  if (await accountSetLately(ctx, merchant.user_id)) throw new AppError('MERCHANT_ACCOUNT_NEW');
  const purpose = language === 'en' ? 'Settlement of wallet payments' : 'Перечисление платежей кошелька';
  return payOut(
    ctx,
    {
      userId: merchant.user_id,
      merchant: { id: merchant.id },
      confirmation,
      purpose: 'settlement',
      amount: whole,
      currency: 'RUB',
      destination: {
        type: 'bank_account',
        account: merchant.bank_account,
        bic: merchant.bank_bic,
        correspondentAccount: '',
        bankName: '',
        payeeName: merchant.name,
        payeeInn: merchant.inn,
        kpp: null,
        purpose,
      },
      shownDestination: merchant.bank_account,
      payeeName: merchant.name,
      payeeDetails: { bic: merchant.bank_bic, payee_inn: merchant.inn, origin },
      providerDescription: purpose,
      scope,
      language,
    },
    (payout) => ({
      status: 'success' as const,
      message: SETTLEMENT_MADE[language],
      receipt: payoutReceiptOf(payout, language),
      settlement: settlementOf({
        ...payout,
        payee_details: { bic: merchant.bank_bic, origin },
        settled_at: null,
      }),
    }),
  );
}

/**
 * Whether the owner set the settlement account within the last day: a session and PIN in a thief's hands
 * could have, so it receives nothing until the owner has had a day to freeze the wallet
 * (docs/decisions/merchants.md#settlement).
 */
async function accountSetLately(ctx: AppContext, userId: string): Promise<boolean> {
  const since = new Date(ctx.clock.now().getTime() - ACCOUNT_SETTLES_AFTER_MS);
  const { rows } = await ctx.db.query(
    `SELECT 1 FROM security_changes
     WHERE user_id = $1 AND kind = 'settlement_account_changed' AND created_at > $2 LIMIT 1`,
    [userId, since],
  );
  return rows.length > 0;
}

export async function settleNow(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'merchantSettle'>,
  options: { idempotencyKey: string | null; language: Language },
): Promise<AnswerOf<'merchantSettle'>> {
  const merchant = await merchantOfUser(ctx.db, userId);
  if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
  const amount = body.amount === undefined ? null : amountOf(body.amount, 'RUB');
  const scope = {
    userId,
    call: 'merchantSettle' as const,
    key: options.idempotencyKey,
    requestHash: requestHash(ctx, body),
  };
  return settle(ctx, merchant, amount, body, scope, 'manual', options.language);
}

export async function settlementsOf(
  ctx: AppContext,
  userId: string,
): Promise<AnswerOf<'merchantSettlements'>> {
  const merchant = await merchantOfUser(ctx.db, userId);
  if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
  const { rows } = await ctx.db.query<SettlementRow>(
    `SELECT id, amount, status, payee_details, destination, failure_reason, created_at, settled_at
     FROM payouts WHERE merchant_id = $1 ORDER BY created_at DESC, id LIMIT 100`,
    [merchant.id],
  );
  return { results: rows.map(settlementOf) };
}

/**
 * The daily settlement: each active merchant's whole available balance, once a day (Moscow) whatever
 * runs it: the run's Idempotency-Key is the day, so a second instance's run, or a repeat, answers the
 * first. One merchant's failure does not stop the others. Answers how many settlements it made.
 */
export async function runDailySettlements(ctx: AppContext): Promise<number> {
  const day = walletClock(ctx.clock.now()).slice(0, 10);
  const { rows } = await ctx.db.query<{ user_id: string }>(
    `SELECT m.user_id FROM merchants m JOIN ledger_accounts a ON a.id = m.account_id
     WHERE m.status = 'active' AND a.balance - a.pending_debits > 0 ORDER BY m.created_at, m.id`,
  );
  let made = 0;
  for (const { user_id } of rows) {
    const merchant = await merchantOfUser(ctx.db, user_id);
    if (!merchant) continue;
    const scope = {
      userId: user_id,
      call: 'merchantSettlementRun' as const,
      key: `daily:${day}`,
      requestHash: requestHash(ctx, { merchant: merchant.id, day }),
    };
    try {
      await settle(ctx, merchant, null, { settlementRun: true }, scope, 'daily', 'ru');
      made += 1;
    } catch (error) {
      if (!(error instanceof AppError))
        console.warn(`settlement of ${merchant.id}: ${(error as Error).message}`);
    }
  }
  return made;
}

/** The daily run at MERCHANT_SETTLEMENT_HOUR, Moscow time, once for all instances (the job system's cron). */
export function defineSettlementJobs(ctx: AppContext): void {
  ctx.jobs.define({
    name: SETTLEMENT_QUEUE,
    cron: `0 ${ctx.config.MERCHANT_SETTLEMENT_HOUR} * * *`,
    run: async () => {
      await runDailySettlements(ctx);
    },
  });
}
