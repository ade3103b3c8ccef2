import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/i18n.ts';
import { useSessionStore } from '../../store/session-store.ts';
import { AppLock } from './app-lock.tsx';
import { LOCK_STORAGE_KEY, sessionTag } from './idle-lock.ts';

const TOKEN = 'lock-test-token';
const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answerWith(hasPin: boolean, pinAnswers: Response[]) {
  fetchMock.mockImplementation(async (url) => {
    const path = String(url);
    if (path.endsWith('/v2/wallet/auth/info')) {
      return json({ first_name: 'Мария', last_name: 'Соколова', has_pin: hasPin });
    }
    if (path.endsWith('/v2/wallet/auth/pin/verify')) return pinAnswers.shift() ?? json({ status: 'ok' });
    return json({ status: 'error', code: 'NOT_FOUND', message: 'no' }, 404);
  });
}

function renderLock(onSignOut = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <button type="button">behind</button>
      <AppLock onSignOut={onSignOut} />
    </QueryClientProvider>,
  );
  return onSignOut;
}

const lockedAlready = () =>
  localStorage.setItem(
    LOCK_STORAGE_KEY,
    JSON.stringify({ tag: sessionTag(TOKEN), deadline: Date.now() - 1 }),
  );
const digit = (n: number) => screen.getByLabelText(`Цифра PIN-кода ${n} из 4`);

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('fetch', fetchMock);
  useSessionStore.setState({ authToken: TOKEN });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('AppLock', () => {
  it('locks after 15 minutes without activity and greets the user by name', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answerWith(true, []);
    renderLock();
    expect(screen.queryByTestId('app-lock')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(15 * 60_000 - 1);
    });
    expect(screen.queryByTestId('app-lock')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    const dialog = await screen.findByTestId('app-lock');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(await screen.findByText('Мария Соколова, введите PIN-код, чтобы продолжить')).toBeTruthy();
  });

  it('shows the server message for a wrong PIN and opens with the right one', async () => {
    lockedAlready();
    answerWith(true, [
      json({ status: 'error', code: 'PIN_INVALID', message: 'Неверный PIN-код. Осталось попыток: 4' }, 400),
    ]);
    renderLock();
    await screen.findByTestId('app-lock');
    const user = userEvent.setup();
    await user.click(digit(1));
    await user.keyboard('1111');
    expect((await screen.findByRole('alert')).textContent).toBe('Неверный PIN-код. Осталось попыток: 4');
    expect((digit(1) as HTMLInputElement).value).toBe('');
    await user.click(digit(1));
    await user.keyboard('2468');
    await vi.waitFor(() => expect(screen.queryByTestId('app-lock')).toBeNull());
    const bodies = fetchMock.mock.calls
      .filter(([url]) => String(url).endsWith('/pin/verify'))
      .map(([, init]) => JSON.parse(String(init?.body)));
    expect(bodies).toEqual([{ pin: '1111' }, { pin: '2468' }]);
    // A new deadline, 15 minutes on.
    const stored = JSON.parse(localStorage.getItem(LOCK_STORAGE_KEY) ?? '{}');
    expect(stored.deadline).toBeGreaterThan(Date.now() + 14 * 60_000);
  });

  it('offers signing out', async () => {
    lockedAlready();
    answerWith(true, []);
    const onSignOut = renderLock();
    await screen.findByTestId('app-lock');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Выйти' }));
    expect(onSignOut).toHaveBeenCalledOnce();
  });

  it('never locks a user without a PIN', async () => {
    lockedAlready();
    answerWith(false, []);
    renderLock();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await vi.waitFor(() => expect(screen.queryByTestId('app-lock')).toBeNull());
  });
});
