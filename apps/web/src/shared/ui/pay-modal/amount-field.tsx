/** The amount field of the money screens: numeric keyboard, placeholder 0, the currency's sign beside it. */
import { type CurrencyCode, currencySymbol } from '@e-wallet/contract/money';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError } from '../text-field.tsx';
import { type AmountCheck, checkAmount, cleanAmountInput } from './amount.ts';

export interface AmountFieldProps {
  value: string;
  onChange: (value: string) => void;
  currency: string;
  error?: string | null;
  hint?: string;
  label?: string;
  disabled?: boolean;
  autoFocus?: boolean;
}

export function AmountField({
  value,
  onChange,
  currency,
  error,
  hint,
  label,
  disabled,
  autoFocus,
}: AmountFieldProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const describedBy = clsx(hint && `${id}-hint`, error && `${id}-error`) || undefined;
  return (
    <div className={clsx('field amount-field', error && 'field--invalid')}>
      <label className="field__label" htmlFor={id}>
        {label ?? t('moneyFlow.amount')}
      </label>
      <div className="amount-field__row">
        <input
          id={id}
          className="field__input amount-field__input"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('moneyFlow.amountPlaceholder')}
          maxLength={20}
          value={value}
          disabled={disabled}
          // biome-ignore lint/a11y/noAutofocus: the first field of a one-purpose screen
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) =>
            onChange(cleanAmountInput(event.target.value, i18n.language === 'en' ? 'en' : 'ru'))
          }
        />
        <span className="amount-field__currency" aria-hidden="true">
          {currencySymbol(currency)}
        </span>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * An amount field's state on a money screen: the text typed and the problem shown under it, which
 * typing clears. `check` reads the text as money of a currency and shows what is wrong with it.
 */
export function useAmountField() {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    value,
    setValue,
    setError,
    check(currency: CurrencyCode): AmountCheck {
      const checked = checkAmount(value, currency);
      setError(checked.ok ? null : t(`moneyFlow.amountErrors.${checked.problem}`));
      return checked;
    },
    props: {
      value,
      error,
      onChange: (next: string) => {
        setValue(next);
        setError(null);
      },
    },
  };
}
