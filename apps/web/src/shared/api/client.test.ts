import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { approvalsQuery, holdsQuery } from '../../features/holds/api/holds.ts';
import { notificationsQuery } from '../../features/notifications/api/notifications.ts';
import { requestsQuery } from '../../features/requests/api/requests.ts';
import { HOME_CALLS } from '../../preload-route.ts';
import { setSignedOutNavigation } from '../session/sign-out.ts';
import { useSessionStore } from '../store/session-store.ts';
import { ApiError } from './api-error.ts';
import { authInfoQuery } from './auth-info.ts';
import { callApi, pathOf } from './client.ts';
import { EARLY_ANSWER_MS } from './early-answers.ts';
import { callMoney, MONEY_RETRY_DELAYS_MS, startMoneyAttempt } from './money-call.ts';
import { queryClient } from './query-client.ts';
import { transactionsQuery } from './transactions.ts';
import { walletQuery } from './wallet.ts';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

const fetchMock = vi.fn<typeof fetch>();
const goToAuth = vi.fn();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  setSignedOutNavigation(goToAuth);
  useSessionStore.setState({ authToken: 'token-1' });
});
afterEach(() => {
  fetchMock.mockReset();
  goToAuth.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.eWalletEarlyAnswers = undefined;
});

describe('callApi', () => {
  it('sends JSON with the token, the language and the contract path', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { status: 'success', message: 'ok' }));
    await callApi('setPin', { body: { pin_code: '1234' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/v2/wallet/auth/register/set/pin');
    expect(init?.method).toBe('POST');
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Token token-1');
    expect(headers['Accept-Language']).toBe('ru');
    expect(headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(init?.body))).toEqual({ pin_code: '1234' });
    expect(init?.signal).toBeUndefined();
  });

  it('fills path parameters and the query', () => {
    expect(pathOf('account', { id: 'a/b' })).toBe('/v2/wallet/account/a%2Fb');
    expect(pathOf('transactions', undefined, { ordering: '-created_at', cursor: undefined })).toBe(
      '/v2/wallet/transaction?ordering=-created_at',
    );
  });

  it('answers the error body for statuses the call tolerates', async () => {
    const wrong = { status: 'error', code: 'CODE_INVALID', message: 'Неверный код' };
    fetchMock.mockResolvedValueOnce(answer(400, wrong));
    expect(await callApi('login', { body: { phone: '+79990000000', confirm_code: '0000' } })).toEqual(wrong);
    fetchMock.mockResolvedValueOnce(answer(409, { status: 'error', code: 'PHONE_TAKEN', message: 'x' }));
    expect(await callApi('register', { body: {} as never })).toMatchObject({ code: 'PHONE_TAKEN' });
  });

  it('throws for 5xx and for 4xx outside the tolerated range', async () => {
    fetchMock.mockResolvedValueOnce(answer(500, { status: 'error', code: 'INTERNAL_ERROR', message: 'x' }));
    await expect(callApi('register', { body: {} as never })).rejects.toBeInstanceOf(ApiError);
    fetchMock.mockResolvedValueOnce(answer(404, { status: 'error', code: 'NOT_FOUND', message: 'Нет' }));
    await expect(callApi('authInfo')).rejects.toMatchObject({ status: 404, answer: { code: 'NOT_FOUND' } });
  });

  it('turns INVALID_TOKEN into signing out: token cleared, cache emptied, sent to /auth', async () => {
    queryClient.setQueryData(['auth-info'], { first_name: 'Анна' });
    fetchMock.mockResolvedValueOnce(
      answer(401, { status: 'error', code: 'INVALID_TOKEN', message: 'Войдите снова' }),
    );
    await expect(callApi('authInfo')).rejects.toMatchObject({ status: 401 });
    expect(useSessionStore.getState().authToken).toBeNull();
    expect(JSON.parse(localStorage.getItem('e-wallet-session')!).state.authToken).toBeNull();
    expect(queryClient.getQueryData(['auth-info'])).toBeUndefined();
    expect(goToAuth).toHaveBeenCalledTimes(1);
  });

  it('does not sign out for other errors, nor twice for a stale answer', async () => {
    fetchMock.mockResolvedValueOnce(answer(400, { status: 'error', code: 'CODE_INVALID', message: 'x' }));
    await callApi('login', { body: { phone: '+79990000000', confirm_code: '0000' } });
    expect(useSessionStore.getState().authToken).toBe('token-1');
    useSessionStore.setState({ authToken: 'token-2' });
    let release!: (response: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (release = resolve)));
    const pending = callApi('authInfo');
    useSessionStore.setState({ authToken: 'token-3' });
    release(answer(401, { status: 'error', code: 'INVALID_TOKEN', message: 'x' }));
    await expect(pending).rejects.toBeInstanceOf(ApiError);
    expect(useSessionStore.getState().authToken).toBe('token-3');
    expect(goToAuth).not.toHaveBeenCalled();
  });

  it('reports a failure without an answer as status 0', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(callApi('authInfo')).rejects.toMatchObject({ status: 0 });
    expect(log).toHaveBeenCalledWith('Unhandled Error', expect.any(TypeError));
    log.mockRestore();
  });
});

describe('money calls', () => {
  it('send an Idempotency-Key that stays the same for every retry of one attempt', async () => {
    fetchMock.mockImplementation(async () => answer(409, { status: 'error', code: 'X', message: 'x' }));
    const attempt = startMoneyAttempt('withdrawal');
    const body = { amount: '10.00', pan: '4111111111111111', currency_code: 'RUB' as const, pin: '1234' };
    await attempt.send({ body });
    await attempt.send({ body });
    await callMoney('withdrawal', { body });
    const keys = fetchMock.mock.calls.map(
      ([, init]) => (init!.headers as Record<string, string>)['Idempotency-Key'],
    );
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('are repeated with the same key while the service is unavailable (503) or unreachable', async () => {
    vi.useFakeTimers();
    try {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const unavailable = { status: 'error', code: 'SERVICE_UNAVAILABLE', message: 'later' };
      fetchMock
        .mockImplementationOnce(async () => {
          throw new TypeError('Failed to fetch');
        })
        .mockImplementationOnce(async () => answer(503, unavailable, { 'Retry-After': '3' }))
        .mockImplementationOnce(async () => answer(200, { receipt: { id: 'r1' } }));
      const body = { amount: '10.00', pan: '4111111111111111', currency_code: 'RUB' as const, pin: '1234' };
      const pending = callMoney('withdrawal', { body });
      await vi.advanceTimersByTimeAsync(1000);
      expect(fetchMock).toHaveBeenCalledTimes(2);
      // The server asked for 3 s: not sent again before then.
      await vi.advanceTimersByTimeAsync(2500);
      expect(fetchMock).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(500);
      expect(await pending).toEqual({ receipt: { id: 'r1' } });
      const keys = fetchMock.mock.calls.map(
        ([, init]) => (init!.headers as Record<string, string>)['Idempotency-Key'],
      );
      expect(new Set(keys).size).toBe(1);
      log.mockRestore();
    } finally {
      vi.useRealTimers();
    }
  });

  it('are not repeated after an answer that is not temporary, and give up after the repeats', async () => {
    fetchMock.mockImplementation(async () =>
      answer(500, { status: 'error', code: 'INTERNAL_ERROR', message: 'x' }),
    );
    const body = { amount: '10.00', pan: '4111111111111111', currency_code: 'RUB' as const, pin: '1234' };
    await expect(callMoney('withdrawal', { body })).rejects.toMatchObject({ status: 500 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    vi.useFakeTimers();
    try {
      fetchMock.mockReset();
      fetchMock.mockImplementation(async () =>
        answer(503, { status: 'error', code: 'SERVICE_UNAVAILABLE', message: 'later' }),
      );
      const pending = callMoney('withdrawal', { body });
      const failed = expect(pending).rejects.toMatchObject({ status: 503 });
      await vi.advanceTimersByTimeAsync(60_000);
      await failed;
      expect(fetchMock).toHaveBeenCalledTimes(MONEY_RETRY_DELAYS_MS.length + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuse a call that does not move money', () => {
    expect(() => startMoneyAttempt('login')).toThrow();
  });
});

function early(path: string, body: unknown, token = 'token-1', language = 'ru') {
  return { path, token, language, response: Promise.resolve(answer(200, body)) };
}

describe('the home screen calls started by preload-route.ts', () => {
  it('are the paths the home screen queries ask for', async () => {
    fetchMock.mockImplementation(async () => answer(200, { results: [], next: null }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // The home page's own filter (features/wallet/pages/home-page.tsx: the last six transactions).
    await client.fetchQuery(authInfoQuery('token-1'));
    await client.fetchInfiniteQuery(notificationsQuery('token-1'));
    await client.fetchQuery(walletQuery('token-1'));
    await client.fetchInfiniteQuery(transactionsQuery({ limit: 6 }));
    // Its panels: held operations, approvals asked of me, requests to me.
    await client.fetchQuery(holdsQuery);
    await client.fetchQuery(approvalsQuery);
    await client.fetchQuery(requestsQuery('incoming'));
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(HOME_CALLS);
  });

  it('answer the app once, for the same token and language, instead of a request', async () => {
    window.eWalletEarlyAnswers = [early('/v2/wallet', { results: [{ id: 'u', accounts: [] }], next: null })];
    fetchMock.mockImplementation(async () => answer(200, { results: [], next: null }));
    expect(await callApi('wallet')).toEqual({ results: [{ id: 'u', accounts: [] }], next: null });
    expect(fetchMock).not.toHaveBeenCalled();
    // Taken once: the next call asks the server.
    expect(await callApi('wallet')).toEqual({ results: [], next: null });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('are not used for another token or language, or once they are stale', async () => {
    fetchMock.mockImplementation(async () => answer(200, { results: [], next: null }));
    window.eWalletEarlyAnswers = [
      early('/v2/wallet', { from: 'other token' }, 'token-2'),
      early('/v2/wallet', { from: 'english' }, 'token-1', 'en'),
    ];
    expect(await callApi('wallet')).toEqual({ results: [], next: null });
    window.eWalletEarlyAnswers = [early('/v2/wallet', { from: 'early' })];
    vi.spyOn(performance, 'now').mockReturnValue(EARLY_ANSWER_MS + 1);
    expect(await callApi('wallet')).toEqual({ results: [], next: null });
    expect(window.eWalletEarlyAnswers).toEqual([]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('are dropped by a call that may change data', async () => {
    window.eWalletEarlyAnswers = [early('/v2/wallet', { from: 'early' })];
    fetchMock.mockImplementation(async () => answer(200, { status: 'success', message: 'ok' }));
    await callApi('setPin', { body: { pin_code: '1234' } });
    fetchMock.mockImplementation(async () => answer(200, { results: [], next: null }));
    expect(await callApi('wallet')).toEqual({ results: [], next: null });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('fall back to a request when the early one failed', async () => {
    window.eWalletEarlyAnswers = [
      {
        path: '/v2/wallet',
        token: 'token-1',
        language: 'ru',
        response: Promise.reject(new TypeError('offline')),
      },
    ];
    fetchMock.mockImplementation(async () => answer(200, { results: [], next: null }));
    expect(await callApi('wallet')).toEqual({ results: [], next: null });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
