/**
 * POST /v2/wallet/payment/qr {qr, amount?, currency_code, pin} with an Idempotency-Key: one key per
 * opening of the PIN modal (a retry inside it reuses the key), so a lost answer never pays twice.
 */
import { type MoneyAttempt, startMoneyAttempt } from '../../../shared/api/money-call.ts';

export function startQrPayment(): MoneyAttempt<'qrPayment'> {
  return startMoneyAttempt('qrPayment');
}
