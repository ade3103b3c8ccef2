import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { setLanguage } from '../i18n/i18n.ts';
import { defaultCountry } from '../phone/default-country.ts';
import { toE164 } from '../phone/masks.ts';
import { initialPhoneValue, PhoneField, type PhoneValue } from './phone-field.tsx';

beforeAll(() => {
  // happy-dom's <dialog> may lack the modal methods; the browser has them.
  const proto = HTMLDialogElement.prototype as unknown as Record<string, unknown>;
  if (typeof proto.showModal !== 'function') {
    proto.showModal = function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
  }
});

function Harness({ language = 'ru' as 'ru' | 'en' }) {
  const [value, setValue] = useState<PhoneValue>(() => initialPhoneValue(defaultCountry(language)));
  return (
    <>
      <PhoneField label="Телефон" value={value} onChange={setValue} language={language} />
      <output data-testid="e164">{toE164(value.country.code, value.digits)}</output>
    </>
  );
}

describe('PhoneField', () => {
  it('masks a Russian number and sends dial code plus digits', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Телефон') as HTMLInputElement;
    expect(input.placeholder).toBe('___ ___-__-__');
    await user.type(input, '912a3456789');
    expect(input.value).toBe('912 345-67-89');
    expect(screen.getByTestId('e164').textContent).toBe('+79123456789');
    await user.type(input, '0');
    expect(input.value).toBe('912 345-67-89');
  });

  it('deletes the digit before a separator on Backspace', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Телефон') as HTMLInputElement;
    await user.type(input, '9123');
    expect(input.value).toBe('912 3');
    await user.keyboard('{Backspace}');
    expect(input.value).toBe('912');
    await user.keyboard('{Backspace}');
    expect(input.value).toBe('91');
  });

  it('drops the dial code of a pasted international number', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Телефон') as HTMLInputElement;
    await user.click(input);
    await user.paste('+7 912 345-67-89');
    expect(screen.getByTestId('e164').textContent).toBe('+79123456789');
  });

  it('defaults to the United Kingdom in English with a choice of masks', async () => {
    await setLanguage('en');
    onTestFinished(() => setLanguage('ru'));
    render(<Harness language="en" />);
    expect(screen.getByRole('button', { name: /United Kingdom, code \+44/ })).toBeTruthy();
    const masks = screen.getByRole('combobox') as HTMLSelectElement;
    expect(masks.options).toHaveLength(2);
    expect(masks.options[0]!.textContent).toBe('+44 ___ ___ ___');
  });

  it('picks a country by searching its name, which clears the number', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Телефон') as HTMLInputElement;
    await user.type(input, '912');
    await user.click(screen.getByRole('button', { name: /Россия, код \+7/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Выберите страну' }, { timeout: 10_000 });
    const search = within(dialog).getByLabelText('Поиск страны');
    await user.type(search, 'ГЕРМ');
    const options = within(dialog).getAllByRole('button', { name: /\+\d/ });
    expect(options.map((option) => option.textContent)).toEqual(['Германия+49']);
    await user.click(options[0]!);
    await waitFor(() => expect(screen.getByRole('button', { name: /Германия, код \+49/ })).toBeTruthy());
    expect(input.value).toBe('');
    expect(screen.getByTestId('e164').textContent).toBe('+49');
    expect((screen.getByRole('combobox') as HTMLSelectElement).options.length).toBeGreaterThan(1);
    // The full country list is loaded when the dialog opens: on a busy machine that alone takes seconds.
  }, 20_000);
});
