/** POST /v2/wallet/payment/qr/check: whether the QR payment can go through, before the PIN. */
import type { BodyOf } from '@e-wallet/contract';
import { callOk } from '../../../shared/api/client.ts';

export const checkQrPayment = (body: BodyOf<'qrPaymentCheck'>, signal: AbortSignal) =>
  callOk('qrPaymentCheck', { body, signal });
