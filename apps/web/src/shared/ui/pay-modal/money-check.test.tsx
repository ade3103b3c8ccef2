/**
 * The answers before the PIN: the limit meter reads the check's limits ('осталось … из … в этом
 * месяце') and hides for a level without a monthly limit; each problem shows by its message.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import '../../i18n/i18n.ts';
import { CheckProblems, LimitMeter, type Limits } from './money-check.tsx';

const wrap = (node: ReactNode) =>
  render(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);

const limits = (max: string | null, left: string | null): Limits => ({
  currency_code: 'RUB',
  balance_max: '60000.00',
  monthly_outgoing_max: max,
  monthly_outgoing_used: '7600.00',
  monthly_outgoing_left: left,
});

describe('LimitMeter', () => {
  it('says what is left of the monthly limit, with a meter of it', () => {
    wrap(<LimitMeter limits={limits('40000.00', '32400.00')} />);
    const meter = screen.getByTestId('limit-meter');
    expect(meter.textContent).toContain(
      'осталось 32\u00a0400,00\u00a0₽ из 40\u00a0000,00\u00a0₽ в этом месяце',
    );
    const bar = screen.getByRole('meter', { name: 'Лимит расходов в месяц' });
    expect(bar.getAttribute('value')).toBe('32400');
    expect(bar.getAttribute('max')).toBe('40000');
  });

  it('shows nothing for a level without a monthly limit', () => {
    wrap(<LimitMeter limits={limits(null, null)} />);
    expect(screen.queryByTestId('limit-meter')).toBeNull();
  });
});

describe('CheckProblems', () => {
  it('lists each problem by its message, and nothing when there is none', () => {
    const { rerender } = wrap(
      <CheckProblems
        problems={[
          { code: 'INSUFFICIENT_FUNDS', message: 'Недостаточно средств на счёте' },
          { code: 'LIMIT_MONTHLY', message: 'Превышен месячный лимит: осталось 100,00 ₽' },
        ]}
      />,
    );
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Недостаточно средств на счёте',
      'Превышен месячный лимит: осталось 100,00 ₽',
    ]);
    rerender(
      <QueryClientProvider client={new QueryClient()}>
        <CheckProblems problems={[]} />
      </QueryClientProvider>,
    );
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
  });
});

describe('useMoneyCheck', () => {
  const answer = { ok: true, problems: [], limits: limits('40000.00', '40000.00') };

  it('asks once the typing settles, cancels a question that went stale, and is ready only for the current body', async () => {
    const { act, renderHook, waitFor } = await import('@testing-library/react');
    const { useMoneyCheck } = await import('./money-check.tsx');
    const signals: AbortSignal[] = [];
    const asked: string[] = [];
    const ask = (body: { amount: string }, signal: AbortSignal) => {
      asked.push(body.amount);
      signals.push(signal);
      // The first question never answers: only a newer one can end it.
      return body.amount === '10' ? new Promise<typeof answer>(() => {}) : Promise.resolve(answer);
    };
    const client = new QueryClient();
    const { result, rerender } = renderHook(
      ({ amount }: { amount: string | null }) => useMoneyCheck('test', amount ? { amount } : null, ask),
      {
        initialProps: { amount: null as string | null },
        wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
      },
    );
    // Typed quickly: only the settled value is asked.
    rerender({ amount: '1' });
    rerender({ amount: '10' });
    await waitFor(() => expect(asked).toEqual(['10']));
    expect(result.current.ready).toBe(false);
    act(() => rerender({ amount: '100' }));
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect(asked).toEqual(['10', '100']);
    expect(signals[0]!.aborted).toBe(true);
    // A change not yet asked is not ready, whatever the last answer said.
    act(() => rerender({ amount: '1000' }));
    expect(result.current.ready).toBe(false);
    act(() => rerender({ amount: null }));
    expect(result.current.answer).toBeNull();
  });
});
