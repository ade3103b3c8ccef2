/**
 * The parsed payment as a person sees it: our receive QR (the masked recipient from the server, the
 * code's amount, paid with the PIN: one call with the Idempotency-Key, the amount left to the code),
 * a GOST code without a sum (the amount field and its errors), an SBP code and an unknown code (no
 * send button: nothing can move), a broken code, and an account in the wrong currency.
 */
import { walletQrText } from '@e-wallet/contract/qr';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../shared/i18n/i18n.ts';
import type { WalletAccount } from '../../../shared/api/wallet.ts';
import { QrPaymentCard } from './qr-payment-card.tsx';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const RUB = {
  id: '10000000-0000-4000-8000-000000000001',
  currency_code: 'RUB',
  balance: '1000.00',
} as WalletAccount;
const USD = {
  id: '10000000-0000-4000-8000-000000000002',
  currency_code: 'USD',
  balance: '5.00',
} as WalletAccount;
const GOST =
  'ST00012|Name=ООО «Три кита»|PersonalAcc=40702810200000012345|BankName=ПАО Сбербанк|BIC=044525225|CorrespAcc=30101810400000000225';
const receipt = (amount: string) => ({
  id: '20000000-0000-4000-8000-000000000001',
  kind: 'payment',
  status: 'complete',
  amount,
  currency_code: 'RUB',
  created_at: '2026-11-22T13:05:00.000Z',
  description: 'Платёж',
  counterparty: 'Иван П.',
  card: null,
  failure_reason: null,
});

function renderCard(qr: string, account: WalletAccount | null = RUB) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <QrPaymentCard qr={qr} account={account} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function callsTo(path: string) {
  return fetchMock.mock.calls.filter(([url]) => String(url).startsWith(path));
}

async function enterPin(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByTestId('pay-modal');
  await user.click(within(dialog).getByLabelText('Цифра 1 из 4'));
  await user.keyboard('2468');
  await user.click(within(dialog).getByRole('button', { name: 'Подтвердить' }));
  return dialog;
}

const LIMITS = {
  currency_code: 'RUB',
  balance_max: '60000.00',
  monthly_outgoing_max: '40000.00',
  monthly_outgoing_used: '7600.00',
  monthly_outgoing_left: '32400.00',
};
// The pre-PIN check answers apart, so fetchMock sees only the calls each test is about.
let checkAnswer: unknown = { ok: true, problems: [], limits: LIMITS };
const checkCalls: unknown[] = [];
beforeEach(() => {
  checkAnswer = { ok: true, problems: [], limits: LIMITS };
  checkCalls.length = 0;
  vi.stubGlobal('fetch', (url: RequestInfo | URL, init?: RequestInit) => {
    if (String(url) === '/v2/wallet/payment/qr/check') {
      checkCalls.push(JSON.parse(String(init?.body)));
      return Promise.resolve(json(checkAnswer));
    }
    return fetchMock(url, init);
  });
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('QrPaymentCard', () => {
  it('our receive QR: shows the masked recipient and the amount, and pays with the PIN once', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).startsWith('/v2/wallet/transfer/recipient')
        ? json({ status: 'success', name: 'Иван П.', phone: '+79991234567' })
        : json({ status: 'success', message: 'Оплата выполнена', receipt: receipt('150.50') }),
    );
    const user = userEvent.setup();
    const qr = walletQrText('+79991234567', '150.50');
    renderCard(qr);

    expect(await screen.findByText('Иван П.')).toBeTruthy();
    expect(callsTo('/v2/wallet/transfer/recipient')[0]?.[0]).toBe(
      '/v2/wallet/transfer/recipient?phone=%2B79991234567',
    );
    expect(screen.getByTestId('qr-amount').textContent).toBe('150,50\u00a0₽');
    // The raw code is not shown; the limit meter is.
    expect(screen.queryByText(qr)).toBeNull();
    expect((await screen.findByTestId('limit-meter')).textContent).toContain(
      'осталось 32\u00a0400,00\u00a0₽ из 40\u00a0000,00\u00a0₽ в этом месяце',
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Отправить' })).toHaveProperty('disabled', false),
    );
    expect(checkCalls.at(-1)).toEqual({ qr, currency_code: 'RUB' });

    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    const dialog = await enterPin(user);
    await within(dialog).findByText('Оплата выполнена');
    const payments = callsTo('/v2/wallet/payment/qr');
    expect(payments).toHaveLength(1);
    const init = payments[0]![1]!;
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ qr, currency_code: 'RUB', pin: '2468' });
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an unknown recipient is explained and cannot be paid', async () => {
    fetchMock.mockResolvedValue(
      json({ status: 'error', code: 'RECIPIENT_NOT_FOUND', message: 'Получатель не найден' }, 404),
    );
    renderCard(walletQrText('+79990000000', '10.00'));
    expect(await screen.findByText('Получатель не найден')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Отправить' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('GOST without a sum: the amount field, its errors, and the typed amount sent', async () => {
    fetchMock.mockResolvedValue(
      json({
        status: 'success',
        message: 'Платёж принят и будет зачислен получателю',
        receipt: receipt('99.90'),
      }),
    );
    const user = userEvent.setup();
    renderCard(GOST);
    expect(screen.getByTestId('qr-payee').textContent).toBe('ООО «Три кита»');
    expect(screen.getByTestId('qr-bank').textContent).toBe('ПАО Сбербанк');
    expect(screen.queryByTestId('qr-amount')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(screen.getByText('Введите сумму, например 150 или 150,50')).toBeTruthy();
    expect(screen.queryByTestId('pay-modal')?.hasAttribute('open') ?? false).toBe(false);

    await user.type(screen.getByLabelText('Сумма платежа'), '99,9');
    // The button waits for the check of the settled amount.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Отправить' })).toHaveProperty('disabled', false),
    );
    expect(checkCalls.at(-1)).toEqual({ qr: GOST, amount: '99.90', currency_code: 'RUB' });
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    const dialog = await enterPin(user);
    await within(dialog).findByText('Платёж принят и будет зачислен получателю');
    const body = JSON.parse(String(callsTo('/v2/wallet/payment/qr')[0]![1]!.body));
    expect(body).toEqual({ qr: GOST, amount: '99.90', currency_code: 'RUB', pin: '2468' });
  });

  it('a check problem shows inline before the PIN and keeps the send button off', async () => {
    checkAnswer = {
      ok: false,
      problems: [{ code: 'INSUFFICIENT_FUNDS', message: 'Недостаточно средств на счёте' }],
      limits: LIMITS,
    };
    fetchMock.mockImplementation(async () =>
      json({ status: 'success', name: 'Иван П.', phone: '+79991234567' }),
    );
    renderCard(walletQrText('+79991234567', '5000.00'));
    expect(await screen.findByText('Недостаточно средств на счёте')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Отправить' })).toHaveProperty('disabled', true);
  });

  it('an unknown code: says it is not a payment code, with what was read, and no send button', () => {
    renderCard('https://example.com/promo?id=7');
    const notice = screen.getByTestId('qr-unavailable');
    expect(notice.textContent).toContain('Это не платёжный QR-код');
    expect(notice.textContent).not.toContain('временно недоступна');
    expect(notice.textContent).toContain('https://example.com/promo?id=7');
    expect(screen.queryByRole('button', { name: 'Отправить' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('an SBP code says it needs a member bank; a broken GOST code names its fault; neither can be sent', () => {
    const { unmount } = renderCard(
      'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111&sum=10000&cur=RUB',
    );
    expect(screen.getByTestId('qr-unavailable').textContent).toContain('участника СБП');
    expect(screen.queryByRole('button', { name: 'Отправить' })).toBeNull();
    unmount();
    renderCard(GOST.replace('BIC=044525225', 'BIC=04452522'));
    expect(screen.getByTestId('qr-unavailable').textContent).toBe('QR-код содержит ошибку: неверный БИК');
    expect(screen.queryByRole('button', { name: 'Отправить' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a GOST code with a USD account chosen asks for the RUB account', async () => {
    renderCard(`${GOST}|Sum=1000`, USD);
    expect(screen.getByText('Этот платёж списывается со счёта RUB')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Отправить' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(fetchMock).not.toHaveBeenCalled());
  });
});
