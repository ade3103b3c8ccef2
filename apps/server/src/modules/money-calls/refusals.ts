/**
 * A door's refusal as the contract's error: the one map for every money call (a person's, a
 * schedule's run, an operator's refund). The door names the rule and its figures; this file only
 * words them. The PIN's refusal is the PIN check's to name (modules/auth), never mapped here.
 */
import { formatAmount, knownCurrency } from '@e-wallet/contract';
import { AppError } from '../../errors.ts';
import type { Refusal } from '../../ledger/index.ts';
import { rubParam } from '../../policy/levels.ts';

export function refusalError(refusal: Refusal): AppError {
  const rub = (minor: string | undefined) => rubParam(BigInt(minor ?? '0'));
  switch (refusal.rule) {
    case 'account_missing':
      return new AppError('ACCOUNT_NOT_FOUND');
    case 'payee_account_missing':
      return new AppError('RECIPIENT_ACCOUNT_MISSING');
    case 'wallet_frozen':
      return new AppError('WALLET_FROZEN');
    case 'wallet_closed':
      return new AppError('WALLET_CLOSED');
    // Another person's state (their cap, a closed wallet) is never told, only that they cannot accept now.
    case 'recipient_closed':
    case 'recipient_limit_balance':
      return new AppError('RECIPIENT_UNAVAILABLE');
    case 'transfer_not_allowed':
      return new AppError('TRANSFER_NOT_ALLOWED');
    case 'withdrawal_not_allowed':
      return new AppError('WITHDRAWAL_NOT_ALLOWED');
    case 'topup_not_allowed':
      return new AppError('TOPUP_NOT_ALLOWED');
    case 'limit_monthly':
      return new AppError('LIMIT_MONTHLY', { limit: rub(refusal.limit), left: rub(refusal.left) });
    case 'limit_balance':
      return new AppError('LIMIT_BALANCE', { limit: rub(refusal.limit) });
    case 'insufficient_funds':
      return new AppError('INSUFFICIENT_FUNDS');
    case 'exchange_not_allowed':
      return new AppError('EXCHANGE_NOT_ALLOWED');
    case 'quote_expired':
      return new AppError('QUOTE_EXPIRED');
    case 'missing':
      return new AppError('NOT_FOUND');
    case 'not_proposed':
      return new AppError('REFUND_NOT_PROPOSED');
    case 'four_eyes':
      return new AppError('FOUR_EYES_REQUIRED');
    case 'not_refundable':
      return new AppError('REFUND_NOT_ALLOWED');
    case 'refund_exceeds': {
      const currency = knownCurrency(refusal.currency);
      return new AppError('REFUND_EXCEEDS', {
        left: { amount: formatAmount(BigInt(refusal.left ?? '0'), currency), currency },
      });
    }
    case 'merchant_not_active':
      return new AppError('MERCHANT_NOT_ACTIVE');
    case 'pin':
      throw new Error('money-calls: the PIN is decided by modules/auth');
  }
}
