/** POST /v2/wallet/withdrawal/check: whether the withdrawal can go through, before the PIN (the card may be unfinished). */
import type { BodyOf } from '@e-wallet/contract';
import { callOk } from '../../../shared/api/client.ts';

export const checkWithdrawal = (body: BodyOf<'withdrawalCheck'>, signal: AbortSignal) =>
  callOk('withdrawalCheck', { body, signal });
