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
