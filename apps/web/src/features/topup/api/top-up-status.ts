/** GET /v2/wallet/top-up/status?order=: the order's status and amount. */
import { callOk } from '../../../shared/api/client.ts';

export function loadTopUpStatus(order: string, signal?: AbortSignal) {
  return callOk('topUpStatus', { query: { order }, signal });
}
