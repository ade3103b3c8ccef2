import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CodeInput } from './code-input.tsx';

function Harness({ onComplete, initial = '' }: { onComplete?: (code: string) => void; initial?: string }) {
  const [code, setCode] = useState(initial);
  return (
    <>
      <button type="button">before</button>
      <CodeInput
        value={code}
        onChange={setCode}
        label="Код из SMS"
        digitLabel={(n, total) => `Цифра ${n} из ${total}`}
        onComplete={onComplete}
      />
      <output data-testid="value">{code}</output>
      <button type="button" onClick={() => setCode('')}>
        reset
      </button>
      <button type="button">after</button>
    </>
  );
}

const box = (n: number) => screen.getByRole('textbox', { name: `Цифра ${n} из 4` }) as HTMLInputElement;

describe('CodeInput', () => {
  it('has a labelled group and one labelled box per digit', () => {
    render(<Harness />);
    expect(screen.getByRole('group', { name: 'Код из SMS' })).toBeTruthy();
    expect(screen.getAllByRole('textbox')).toHaveLength(4);
    expect(box(1).getAttribute('autocomplete')).toBe('one-time-code');
    expect(box(1).getAttribute('inputmode')).toBe('numeric');
  });

  it('takes one digit per box and moves focus forward', async () => {
    const user = userEvent.setup();
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    await user.click(box(1));
    await user.keyboard('1');
    expect(document.activeElement).toBe(box(2));
    await user.keyboard('2a3');
    expect(screen.getByTestId('value').textContent).toBe('123');
    expect(document.activeElement).toBe(box(4));
    await user.keyboard('4');
    expect(screen.getByTestId('value').textContent).toBe('1234');
    expect(onComplete).toHaveBeenCalledWith('1234');
  });

  it('moves back on Backspace in an empty box', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('12');
    expect(document.activeElement).toBe(box(3));
    await user.keyboard('{Backspace}');
    expect(document.activeElement).toBe(box(2));
    await user.keyboard('{Backspace}');
    expect(box(2).value).toBe('');
    expect(screen.getByTestId('value').textContent).toBe('1');
  });

  it('never tabs from box to box: Tab leaves the code as a whole', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('1');
    expect(document.activeElement).toBe(box(2));
    await user.tab();
    expect(document.activeElement).not.toBe(box(3));
    expect(document.activeElement?.textContent).toBe('reset');
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(box(2));
    await user.tab({ shift: true });
    expect(document.activeElement?.textContent).toBe('before');
    expect([1, 2, 3, 4].map((n) => box(n).tabIndex)).toEqual([-1, 0, -1, -1]);
  });

  it('overwrites a filled code typed again from the first box, even with the same digits', async () => {
    const user = userEvent.setup();
    render(<Harness initial="1234" />);
    await user.click(box(1));
    await user.keyboard('1235');
    expect(screen.getByTestId('value').textContent).toBe('1235');
    expect(document.activeElement).toBe(box(4));
  });

  it('fills every box from a pasted code', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.paste(' 98-76 ');
    expect([1, 2, 3, 4].map((n) => box(n).value)).toEqual(['9', '8', '7', '6']);
    expect(screen.getByTestId('value').textContent).toBe('9876');
  });

  it('spreads an autofilled code typed into the first box', () => {
    render(<Harness />);
    fireEvent.change(box(1), { target: { value: '4321' } });
    expect(screen.getByTestId('value').textContent).toBe('4321');
  });

  it('lands a click past the first empty box on that box, and clears when the parent resets', async () => {
    const user = userEvent.setup();
    render(<Harness initial="12" />);
    await user.click(box(4));
    expect(document.activeElement).toBe(box(3));
    await user.click(screen.getByText('reset'));
    expect([1, 2, 3, 4].map((n) => box(n).value)).toEqual(['', '', '', '']);
  });
});
