/** POST /v2/wallet/transfer/check: whether the transfer can go through, before the PIN. */
import type { BodyOf } from '@e-wallet/contract';
import { callOk } from '../../../shared/api/client.ts';

export const checkTransfer = (body: BodyOf<'transferCheck'>, signal: AbortSignal) =>
  callOk('transferCheck', { body, signal });
