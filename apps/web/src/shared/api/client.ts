/**
 * The typed API client over the contract's call table. Every call of the app goes through
 * `callApi`: it sends JSON, `Authorization: Token <token>` when signed in and `Accept-Language`,
 * has no timeout (docs/product.md#business-constants-and-limits), and answers the parsed JSON for 2xx and for
 * the non-2xx statuses the call tolerates (docs/product.md#calls); anything else throws an ApiError.
 * This is the one place where an INVALID_TOKEN answer turns into signing out.
 */

import { callTable } from 'virtual:call-table';
import type { AnswerOf, BodyOf, CallName, ParamsOf, QueryOf } from '@e-wallet/contract';
import i18n from '../i18n/i18n.ts';
import { signOutLocally } from '../session/sign-out.ts';
import { getAuthToken } from '../store/session-store.ts';
import { ApiError, type ErrorAnswer, isErrorAnswer } from './api-error.ts';
import { dropEarlyAnswers, takeEarlyAnswer } from './early-answers.ts';

export type Answer<N extends CallName> = AnswerOf<N> | ErrorAnswer;

export interface CallInput<N extends CallName> {
  body?: BodyOf<N>;
  query?: QueryOf<N>;
  params?: ParamsOf<N>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Non-2xx statuses whose `{status: 'error', message}` answer the screen shows itself. */
const TOLERATED: Partial<Record<CallName, (status: number) => boolean>> = {
  register: (status) => status >= 200 && status <= 499,
  registerConfirm: (status) => status < 500,
  login: () => true,
  // The spec does not read send_code's answer; we do, to show the resend cooldown.
  sendCode: (status) => status < 500,
  upgradeIdentification: (status) => status < 500,
  identificationStatus: (status) => status < 500,
  topUp: (status) => status < 500,
  withdrawal: (status) => status >= 200 && status <= 499,
};

export function pathOf(name: CallName, params?: Record<string, string>, query?: Record<string, unknown>) {
  let path = callTable[name].path.replace(/:(\w+)/g, (_whole, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`${name}: missing path parameter ${key}`);
    return encodeURIComponent(value);
  });
  if (query) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) search.set(key, String(value));
    }
    const text = search.toString();
    if (text) path += `?${text}`;
  }
  return path;
}

export async function callApi<N extends CallName>(name: N, input: CallInput<N> = {}): Promise<Answer<N>> {
  const route = callTable[name];
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': i18n.language || 'ru',
    ...input.headers,
  };
  const token = getAuthToken();
  if (token) headers.Authorization = `Token ${token}`;
  let body: string | undefined;
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(input.body ?? {});
  }

  const path = pathOf(
    name,
    input.params as Record<string, string> | undefined,
    input.query as Record<string, unknown> | undefined,
  );
  const send = () =>
    fetch(path, { method: route.method, headers, body, signal: input.signal, credentials: 'same-origin' });
  // The home screen's first answers may be on their way already (src/preload-route.ts).
  const early =
    route.method === 'GET' && !input.headers
      ? takeEarlyAnswer(path, token, headers['Accept-Language']!)
      : null;
  if (route.method !== 'GET') dropEarlyAnswers();
  let response: Response;
  try {
    response = early ? await early.catch(send) : await send();
  } catch (error) {
    if ((error as Error)?.name !== 'AbortError') console.error('Unhandled Error', error);
    throw new ApiError(0, null, (error as Error)?.message ?? 'Network error');
  }

  const answer: unknown = await response.json().catch(() => null);
  if (isErrorAnswer(answer) && answer.code === 'INVALID_TOKEN') {
    // Only a token this request carried can be invalid; a stale answer after sign-out is ignored.
    if (token && getAuthToken() === token) signOutLocally();
    throw new ApiError(response.status, answer);
  }
  if (response.ok || TOLERATED[name]?.(response.status)) {
    if (answer === null) throw new ApiError(response.status, null, 'The answer is not JSON');
    return answer as Answer<N>;
  }
  const failure = new ApiError(response.status, isErrorAnswer(answer) ? answer : null);
  const retryAfter = Number(response.headers.get('Retry-After'));
  if (retryAfter > 0) failure.retryAfter = retryAfter;
  throw failure;
}

/** The answer of a call that throws on any error answer: for queries that only want the data. */
export async function callOk<N extends CallName>(name: N, input: CallInput<N> = {}): Promise<AnswerOf<N>> {
  const answer = await callApi(name, input);
  if (isErrorAnswer(answer)) throw new ApiError(400, answer);
  return answer as AnswerOf<N>;
}
