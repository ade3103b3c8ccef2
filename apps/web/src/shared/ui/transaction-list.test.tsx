import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../i18n/i18n.ts';
import { TransactionList } from './transaction-list.tsx';
import '../i18n/signed-in-texts.ts';

const fetchMock = vi.fn<typeof fetch>();
const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function transaction(id: string, amount: string, description: string) {
  return {
    id: `00000000-0000-4000-8000-${id.padStart(12, '0')}`,
    account_id: '10000000-0000-4000-8000-000000000000',
    amount,
    currency_code: 'RUB',
    description,
    created_at: '2026-11-22T13:05:00.000Z',
    wallet_transaction_type: 'other',
    kind: 'transfer',
    status: 'complete',
  };
}

function renderList(filter = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <TransactionList filter={filter} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('TransactionList', () => {
  it('shows each amount by its sign and pages on with the cursor', async () => {
    fetchMock
      .mockResolvedValueOnce(
        answer({
          results: [transaction('1', '-20.50', 'Оплата'), transaction('2', '0.00', 'Проверка карты')],
          next: 'CURSOR_2',
        }),
      )
      .mockResolvedValueOnce(
        answer({ results: [transaction('3', '1500.00', 'Зачисление зарплаты')], next: null }),
      );
    renderList({ account: '10000000-0000-4000-8000-000000000000' });

    const out = await screen.findByText('Оплата');
    const outRow = out.closest('a')!;
    expect(outRow.dataset.look).toBe('withdrawal');
    expect(outRow.textContent).toContain('-20,50\u00a0₽');
    expect(outRow.textContent).toContain('Списание');
    const zeroRow = screen.getByText('Проверка карты').closest('a')!;
    expect(zeroRow.dataset.look).toBe('operation');
    expect(zeroRow.textContent).toContain('Операция');
    expect(zeroRow.querySelector('[data-testid="transaction-amount"]')!.textContent).toBe('0,00\u00a0₽');
    expect(String(fetchMock.mock.calls[0]![0])).toBe(
      '/v2/wallet/transaction?ordering=-created_at&account=10000000-0000-4000-8000-000000000000',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
    const inRow = (await screen.findByText('Зачисление зарплаты')).closest('a')!;
    expect(inRow.dataset.look).toBe('topup');
    expect(inRow.textContent).toContain('+1\u00a0500,00\u00a0₽');
    expect(String(fetchMock.mock.calls[1]![0])).toContain('cursor=CURSOR_2');
    expect(screen.queryByRole('button', { name: 'Показать ещё' })).toBeNull();
  });

  it('names a row by its type: an incoming transfer is a transfer, not a top-up; a card mask reads grouped', async () => {
    fetchMock.mockResolvedValueOnce(
      answer({
        results: [
          { ...transaction('4', '250.00', 'Перевод: Анна С.'), wallet_transaction_type: 'transfer' },
          {
            ...transaction('5', '-300.00', 'Вывод на карту 411111******1111'),
            wallet_transaction_type: 'withdrawal',
            kind: 'withdrawal',
          },
        ],
        next: null,
      }),
    );
    renderList();
    const incoming = (await screen.findByText('Перевод: Анна С.')).closest('a')!;
    expect(incoming.textContent).toContain('Перевод');
    expect(incoming.textContent).not.toContain('Пополнение');
    expect(screen.getByText('Вывод на карту 4111 11•• •••• 1111')).toBeTruthy();
  });

  it('a row opens its operation and says a held one’s status, with no actions of its own', async () => {
    const held = { ...transaction('4', '-12000.00', 'Перевод: Emily C.'), status: 'pending' };
    fetchMock.mockResolvedValueOnce(
      answer({
        results: [
          { ...held, hold: { id: '20000000-0000-4000-8000-000000000000', status: 'awaiting_approval' } },
        ],
        next: null,
      }),
    );
    renderList();
    const row = (await screen.findByText('Перевод: Emily C.')).closest('a')!;
    expect(row.getAttribute('href')).toBe(`/history/${held.id}`);
    expect(row.textContent).toContain('Ждёт одобрения');
    expect(row.querySelectorAll('button, select')).toHaveLength(0);
  });

  it('says so when there is nothing', async () => {
    fetchMock.mockResolvedValueOnce(answer({ results: [], next: null }));
    renderList();
    expect(
      await screen.findByText('Операций пока нет. Здесь появятся пополнения, выводы и платежи.'),
    ).toBeTruthy();
  });

  it('shows an error with a retry that loads again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock
      .mockResolvedValueOnce(new Response('{}', { status: 500 }))
      .mockResolvedValueOnce(answer({ results: [transaction('4', '5.00', 'Возврат')], next: null }));
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: 'Повторить' }));
    expect(await screen.findByText('Возврат')).toBeTruthy();
  });
});
