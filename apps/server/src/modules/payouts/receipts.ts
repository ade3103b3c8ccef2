import { formatAmount, type Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { open, payoutsKey } from '../../crypto/sealed.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { LocalText } from '../../ledger/index.ts';

import { findPayout, type PayoutRecordStatus, type PayoutRow, phoneContext, type Receipt } from './store.ts';

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

export const RECEIPT_STATUS: Record<PayoutRecordStatus, Receipt['status']> = {
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
export const FEE_DESCRIPTION: LocalText = { ru: 'Комиссия за перевод по СБП', en: 'SBP transfer fee' };

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
