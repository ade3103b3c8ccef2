import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../i18n/i18n.ts';
// The section is shown in the signed-in area, whose texts load with it.
import '../i18n/signed-in-texts.ts';
import { useSessionStore } from '../store/session-store.ts';
import { browserNavigation } from './identification-calls.ts';
import { IdentificationSection } from './identification-section.tsx';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Level = 'anonymous' | 'simplified' | 'full';

function authInfo(level: Level, verification: { status: string; reason?: string } | null) {
  const limits =
    level === 'anonymous'
      ? { balance_max: '15000.00', monthly_outgoing_max: '40000.00', monthly_outgoing_left: '39000.00' }
      : level === 'simplified'
        ? { balance_max: '60000.00', monthly_outgoing_max: '200000.00', monthly_outgoing_left: '200000.00' }
        : { balance_max: '600000.00', monthly_outgoing_max: null, monthly_outgoing_left: null };
  return {
    first_name: 'Мария',
    last_name: 'Соколова',
    phone: '+79991234567',
    email: 'maria@example.ru',
    registered_at: '2026-11-01T10:00:00.000Z',
    has_pin: true,
    identification_level: { name: level, ask_for_next: level !== 'full' },
    active_identification: verification && {
      id: '00000000-0000-4000-8000-000000000001',
      status: verification.status,
      reason: verification.reason ?? null,
      target_level: level === 'anonymous' ? 'simplified' : 'full',
      created_at: '2026-11-22T10:00:00.000Z',
    },
    is_topup_allowed: true,
    is_withdrawal_allowed: level !== 'anonymous',
    is_transfer_allowed: level !== 'anonymous',
    is_exchange_allowed: level !== 'anonymous',
    is_frozen: false,
    limits: { currency_code: 'RUB', monthly_outgoing_used: '1000.00', ...limits },
  };
}

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <IdentificationSection />
    </QueryClientProvider>,
  );
}

const requested = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method} ${String(url)}`);

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  useSessionStore.setState({ authToken: 'token' });
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('IdentificationSection', () => {
  it('anonymous: the level in words, the limits, the upgrade that leaves for verification_url', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    fetchMock.mockResolvedValueOnce(json(authInfo('anonymous', null))).mockResolvedValueOnce(
      json({
        status: 'success',
        verification_url: '/sandbox/kyc/abc',
        active_identification: authInfo('anonymous', { status: 'pending' }).active_identification,
      }),
    );
    renderSection();
    expect((await screen.findByTestId('identification-level')).textContent).toContain('Анонимный');
    expect(screen.getByTestId('limit-balance').textContent).toBe('15\u00a0000,00\u00a0₽');
    expect(screen.getByTestId('limit-monthly').textContent).toBe(
      'осталось 39\u00a0000,00\u00a0₽ из 40\u00a0000,00\u00a0₽',
    );
    expect(screen.queryByTestId('identification-status')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Обновить статус' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Пройти проверку снова' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Повысить уровень' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox/kyc/abc'));
    expect(requested()).toEqual(['GET /v2/wallet/auth/info', 'POST /v2/wallet/identification-level/upgrade']);
  });

  it('pending: the status text and a refresh that re-checks, then reloads; no upgrade', async () => {
    const reload = vi.spyOn(browserNavigation, 'reload').mockImplementation(() => {});
    fetchMock.mockResolvedValueOnce(json(authInfo('anonymous', { status: 'pending' }))).mockResolvedValueOnce(
      json({
        status: 'success',
        identification_level: { name: 'anonymous', ask_for_next: true },
        active_identification: null,
      }),
    );
    renderSection();
    const status = await screen.findByTestId('identification-status');
    expect(status.textContent).toContain('Проверка начата');
    expect(status.textContent).toContain('Запрошенный уровень: Упрощённый');
    expect(screen.queryByRole('button', { name: 'Повысить уровень' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Обновить статус' }));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce());
    expect(requested()[1]).toBe('POST /v2/wallet/identification-level/status');
  });

  it('in review: its own status text and the refresh button', async () => {
    fetchMock.mockResolvedValueOnce(json(authInfo('anonymous', { status: 'in_review' })));
    renderSection();
    expect((await screen.findByTestId('identification-status')).textContent).toContain(
      'Документы на проверке',
    );
    expect((screen.getByRole('button', { name: 'Обновить статус' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });

  it('aborted: the reason and the retry; a refusal from the server is shown', async () => {
    vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    fetchMock
      .mockResolvedValueOnce(
        json(authInfo('anonymous', { status: 'aborted', reason: 'Документ не прошёл проверку' })),
      )
      .mockResolvedValueOnce(
        json(
          {
            status: 'error',
            code: 'VERIFICATION_ACTIVE',
            message: 'Проверка уже идёт. Дождитесь её результата',
          },
          409,
        ),
      )
      .mockResolvedValue(json(authInfo('anonymous', { status: 'pending' })));
    renderSection();
    const status = await screen.findByTestId('identification-status');
    expect(status.textContent).toContain('Проверка не пройдена');
    expect(within(status).getByTestId('identification-reason').textContent).toContain(
      'Причина: Документ не прошёл проверку',
    );
    expect(screen.queryByRole('button', { name: 'Обновить статус' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Пройти проверку снова' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Проверка уже идёт. Дождитесь её результата',
    );
    // The section then shows what the server knows: a verification under way.
    expect(await screen.findByRole('button', { name: 'Обновить статус' })).toBeTruthy();
    expect(browserNavigation.assign).not.toHaveBeenCalled();
  });

  it('simplified after a completed verification: passed, and the upgrade to full', async () => {
    fetchMock.mockResolvedValueOnce(json(authInfo('simplified', { status: 'complete' })));
    renderSection();
    expect((await screen.findByTestId('identification-level')).textContent).toContain('Упрощённый');
    expect(screen.getByTestId('identification-status').textContent).toContain('Проверка пройдена');
    expect((screen.getByRole('button', { name: 'Повысить уровень' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(screen.queryByText(/станут доступны после идентификации/)).toBeNull();
  });

  it('full: no buttons, no monthly limit', async () => {
    fetchMock.mockResolvedValueOnce(json(authInfo('full', { status: 'complete' })));
    renderSection();
    expect((await screen.findByTestId('identification-level')).textContent).toContain('Полный');
    expect(screen.getByTestId('limit-monthly').textContent).toContain('без ограничений');
    expect(screen.getByText('У вас максимальный уровень идентификации')).toBeTruthy();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });
});
