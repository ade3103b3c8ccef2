/** POST /v2/wallet/request and /cancel, the outgoing list (the incoming calls are in shared/requests). */
import type { BodyOf } from '@e-wallet/contract';
import { callApi, callOk } from '../../../shared/api/client.ts';

export function createRequest(body: BodyOf<'requestCreate'>) {
  return callApi('requestCreate', { body });
}

export function cancelRequest(id: string) {
  return callOk('requestCancel', { params: { id } });
}
