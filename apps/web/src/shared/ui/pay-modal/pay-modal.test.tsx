import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/i18n.ts';
import { type Confirmation, PayModal, RECEIPT_REFRESH_MS } from './pay-modal.tsx';
import type { PayOutcome, Receipt } from './pay-outcome.ts';

const receipt: Receipt = {
  id: '0f8c2a52-7c3e-4d53-9a51-1b1f0b1c9e01',
  kind: 'withdrawal',
  status: 'pending',
  amount: '-1500.00',
  currency_code: 'RUB',
  created_at: '2026-05-01T10:00:00.000Z',
  description: 'Вывод на карту',
  counterparty: null,
  card: '411111******1111',
  failure_reason: null,
};

const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });

function Harness(props: {
  send: (confirmation: Confirmation) => Promise<PayOutcome>;
  refreshReceipt?: (receipt: Receipt) => Promise<Receipt>;
  onReceipt?: (receipt: Receipt) => void;
}) {
  const [open, setOpen] = useState(true);
  return (
    <QueryClientProvider client={client}>
      <output data-testid="open">{String(open)}</output>
      <PayModal
        open={open}
        title="Вывод на карту"
        successText="Заявка на вывод средств успешно создана!"
        onClose={() => setOpen(false)}
        {...props}
      />
    </QueryClientProvider>
  );
}

const pinBox = (n: number) => screen.getByLabelText(`Цифра ${n} из 4`) as HTMLInputElement;
const sendButton = () => screen.getByRole('button', { name: 'Подтвердить' }) as HTMLButtonElement;

async function typePin(pin: string) {
  const user = userEvent.setup();
  await user.click(pinBox(1));
  await user.keyboard(pin);
  return user;
}

describe('PayModal', () => {
  it('asks for the PIN, and send stays disabled until four digits', async () => {
    render(<Harness send={vi.fn()} />);
    expect(screen.getByRole('dialog', { name: 'Вывод на карту' })).toBeTruthy();
    expect(screen.getByText('Подтвердите операцию')).toBeTruthy();
    expect(sendButton().disabled).toBe(true);
    await typePin('246');
    expect(sendButton().disabled).toBe(true);
    await userEvent.setup().keyboard('8');
    expect(sendButton().disabled).toBe(false);
    // PIN boxes hide the digits.
    expect(pinBox(1).type).toBe('password');
  });

  it('waits without a close icon, then shows success and the real receipt', async () => {
    let answer!: (outcome: PayOutcome) => void;
    const send = vi.fn(() => new Promise<PayOutcome>((resolve) => (answer = resolve)));
    const onReceipt = vi.fn();
    render(<Harness send={send} onReceipt={onReceipt} />);
    const user = await typePin('2468');
    await user.click(sendButton());
    expect(send).toHaveBeenCalledWith({ pin: '2468' });
    expect(screen.getByText('Ожидание')).toBeTruthy();
    expect(screen.getByText('Не закрывайте страницу')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Закрыть' })).toBeNull();
    // Escape does not close the waiting modal.
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    expect(screen.getByTestId('open').textContent).toBe('true');

    await act(async () => answer({ status: 'success', message: 'Готово', receipt }));
    expect(screen.getByText('Заявка на вывод средств успешно создана!')).toBeTruthy();
    expect(onReceipt).toHaveBeenCalledWith(receipt);
    await user.click(screen.getByRole('button', { name: 'Подробнее' }));
    expect(screen.getByText('Детали операции')).toBeTruthy();
    const details = within(screen.getByTestId('receipt'));
    expect(details.getByText('Вывод на карту')).toBeTruthy();
    // The stored mask reads as cards do everywhere in the app.
    expect(details.getByText('4111 11•• •••• 1111')).toBeTruthy();
    expect(details.getByText('В обработке')).toBeTruthy();
    expect(details.getByText(/1\s500,00\s₽/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Готово' }));
    expect(screen.getByTestId('open').textContent).toBe('false');
  });

  it('a wrong PIN: the server message without "Повторите попытку позже", and a retry asks for the PIN again', async () => {
    const send = vi
      .fn<(confirmation: Confirmation) => Promise<PayOutcome>>()
      .mockResolvedValueOnce({
        status: 'error',
        message: 'Неверный PIN-код. Осталось попыток: 4',
        code: 'PIN_INVALID',
      })
      .mockResolvedValueOnce({ status: 'success', message: 'ok', receipt });
    render(<Harness send={send} />);
    let user = await typePin('1111');
    await user.click(sendButton());
    expect(await screen.findByText('Неверный PIN-код. Осталось попыток: 4')).toBeTruthy();
    expect(screen.queryByText('Повторите попытку позже')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Попробовать снова' }));
    expect(sendButton().disabled).toBe(true);
    user = await typePin('2468');
    await user.click(sendButton());
    expect(await screen.findByText('Заявка на вывод средств успешно создана!')).toBeTruthy();
    expect(send.mock.calls.map(([confirmation]) => confirmation)).toEqual([{ pin: '1111' }, { pin: '2468' }]);
  });

  it('after the lock-out no retry is offered; no answer at all says "later" and offers one', async () => {
    const send = vi
      .fn<(confirmation: Confirmation) => Promise<PayOutcome>>()
      .mockResolvedValueOnce({
        status: 'error',
        message: 'Операции заблокированы после неверных PIN-кодов. Попробуйте через 15 мин',
        code: 'PIN_LOCKED',
      })
      .mockResolvedValueOnce({ status: 'error', message: 'Нет связи с сервером', code: null });
    const { unmount } = render(<Harness send={send} />);
    let user = await typePin('1111');
    await user.click(sendButton());
    expect(await screen.findByText(/Операции заблокированы/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Попробовать снова' })).toBeNull();
    expect(screen.queryByText('Повторите попытку позже')).toBeNull();
    unmount();
    render(<Harness send={send} />);
    user = await typePin('2222');
    await user.click(sendButton());
    expect(await screen.findByText('Нет связи с сервером')).toBeTruthy();
    expect(screen.getByText('Повторите попытку позже')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Попробовать снова' })).toBeTruthy();
  });

  it('closes from the PIN stage with the close icon', async () => {
    render(<Harness send={vi.fn()} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Закрыть' }));
    expect(screen.getByTestId('open').textContent).toBe('false');
  });
});

describe('PayModal receipt following', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('asks a pending receipt again until it settles', async () => {
    const failed = { ...receipt, status: 'failed' as const, failure_reason: 'Карта отклонена банком' };
    const refreshReceipt = vi
      .fn<(r: Receipt) => Promise<Receipt>>()
      .mockResolvedValueOnce(receipt)
      .mockResolvedValue(failed);
    const onReceipt = vi.fn();
    render(
      <Harness
        send={async () => ({ status: 'success', message: 'ok', receipt })}
        refreshReceipt={refreshReceipt}
        onReceipt={onReceipt}
      />,
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(pinBox(1));
    await user.keyboard('2468');
    await user.click(sendButton());
    await user.click(await screen.findByRole('button', { name: 'Подробнее' }));
    await act(() => vi.advanceTimersByTimeAsync(RECEIPT_REFRESH_MS));
    expect(screen.getByText('В обработке')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(RECEIPT_REFRESH_MS));
    expect(screen.getByText('Не выполнено')).toBeTruthy();
    expect(screen.getByText('Карта отклонена банком')).toBeTruthy();
    expect(onReceipt).toHaveBeenLastCalledWith(failed);
    const calls = refreshReceipt.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(RECEIPT_REFRESH_MS * 3));
    expect(refreshReceipt.mock.calls.length).toBe(calls);
  });
});
