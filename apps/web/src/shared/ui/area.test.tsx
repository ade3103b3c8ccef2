import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import '../i18n/i18n.ts';
import { AreaBoundary } from './area.tsx';
import '../i18n/signed-in-texts.ts';

describe('AreaBoundary', () => {
  it('shows a friendly message with a retry instead of a blank area, and renders again on retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let broken = true;
    const refetch = vi.fn();
    function Chart() {
      if (broken) throw new Error('bad data');
      return <p>Диаграмма</p>;
    }
    render(
      <div>
        <p>Заголовок страницы</p>
        <AreaBoundary onRetry={refetch}>
          <Chart />
        </AreaBoundary>
      </div>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Не удалось показать этот блок');
    expect(screen.getByText('Заголовок страницы')).toBeTruthy();
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(refetch).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Диаграмма')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
