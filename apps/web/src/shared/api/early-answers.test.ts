import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationsQuery } from '../../features/notifications/api/notifications.ts';
import { HOME_CALLS } from '../../preload-route.ts';
import { useSessionStore } from '../store/session-store.ts';
import { authInfoQuery } from './auth-info.ts';
import { callApi } from './client.ts';
import { EARLY_ANSWER_MS } from './early-answers.ts';
import { transactionsQuery } from './transactions.ts';
import { walletQuery } from './wallet.ts';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  useSessionStore.setState({ authToken: 'token-1' });
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.eWalletEarlyAnswers = undefined;
});

function early(path: string, body: unknown, token = 'token-1', language = 'ru') {
  return { path, token, language, response: Promise.resolve(json(body)) };
}

describe('the home screen calls started by preload-route.ts', () => {
  it('are the paths the home screen queries ask for', async () => {
    fetchMock.mockImplementation(async () => json({ results: [], next: null }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // The home page's own filter (features/wallet/pages/home-page.tsx: the last six transactions).
    await client.fetchQuery(authInfoQuery('token-1'));
    await client.fetchInfiniteQuery(notificationsQuery('token-1'));
    await client.fetchQuery(walletQuery('token-1'));
    await client.fetchInfiniteQuery(transactionsQuery({ limit: 6 }));
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(HOME_CALLS);
  });

  it('answer the app once, for the same token and language, instead of a request', async () => {
    window.eWalletEarlyAnswers = [early('/v2/wallet', { results: [{ id: 'u', accounts: [] }], next: null })];
    fetchMock.mockImplementation(async () => json({ results: [], next: null }));
    expect(await callApi('wallet')).toEqual({ results: [{ id: 'u', accounts: [] }], next: null });
    expect(fetchMock).not.toHaveBeenCalled();
    // Taken once: the next call asks the server.
    expect(await callApi('wallet')).toEqual({ results: [], next: null });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('are not used for another token or language, or once they are stale', async () => {
    fetchMock.mockImplementation(async () => json({ results: [], next: null }));
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
    fetchMock.mockImplementation(async () => json({ status: 'success', message: 'ok' }));
    await callApi('setPin', { body: { pin_code: '1234' } });
    fetchMock.mockImplementation(async () => json({ results: [], next: null }));
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
    fetchMock.mockImplementation(async () => json({ results: [], next: null }));
    expect(await callApi('wallet')).toEqual({ results: [], next: null });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
