// The list of about 240 countries with their flags loads when the picker is first wanted.
const loadPicker = () => import('./country-picker.tsx');
const CountryPicker = lazy(loadPicker);

/**
 * The phone input (docs/product.md#states-and-transitions and docs/product.md#validation-rules): a country
 * button (flag and dial code) opening the country picker, a masked number input, and a choice of mask when
 * the country has several.
 * Choosing a country clears the number. The value is the country, the mask and the digits;
 * `toE164(country.code, digits)` is what the server gets.
 */
import './phone-field.css';
import { type KeyboardEvent, lazy, Suspense, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Country } from '../phone/country.ts';
import {
  applyMask,
  caretAfterDigits,
  digitsOnly,
  maskCapacity,
  maskPlaceholder,
  readableMask,
} from '../phone/masks.ts';
import { Flag } from './flag.tsx';
import { ChevronDownIcon } from './icons.tsx';
import { FieldError } from './text-field.tsx';

export interface PhoneValue {
  country: Country;
  maskIndex: number;
  digits: string;
}

export interface PhoneFieldProps {
  label: string;
  value: PhoneValue;
  onChange: (value: PhoneValue) => void;
  language: 'ru' | 'en';
  error?: string | null;
  hint?: string;
  autoFocus?: boolean;
  id?: string;
}

export function PhoneField({
  label,
  value,
  onChange,
  language,
  error,
  hint,
  autoFocus,
  id,
}: PhoneFieldProps) {
  const { t } = useTranslation();
  const autoId = useId();
  const inputId = id ?? autoId;
  const input = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  const [picking, setPicking] = useState(false);
  const { country, maskIndex, digits } = value;
  const mask = readableMask(country.mask[maskIndex] ?? country.mask[0]!);
  const capacity = maskCapacity(mask);
  const formatted = applyMask(digits, mask);

  useLayoutEffect(() => {
    if (caret.current !== null && input.current && document.activeElement === input.current) {
      input.current.setSelectionRange(caret.current, caret.current);
      caret.current = null;
    }
  });

  function setDigits(next: string, digitsBeforeCaret: number) {
    const clipped = next.slice(0, capacity);
    caret.current = caretAfterDigits(applyMask(clipped, mask), Math.min(digitsBeforeCaret, clipped.length));
    onChange({ ...value, digits: clipped });
  }

  function handleChange(text: string, selection: number | null) {
    let all = digitsOnly(text);
    let before = digitsOnly(text.slice(0, selection ?? text.length)).length;
    // A pasted or autofilled international number: drop its dial code.
    const dial = digitsOnly(country.code);
    if (text.trim().startsWith('+') && all.startsWith(dial)) {
      all = all.slice(dial.length);
      before = Math.max(0, before - dial.length);
    } else if (all.length > capacity && all.startsWith(dial) && all.length - dial.length <= capacity) {
      all = all.slice(dial.length);
      before = Math.max(0, before - dial.length);
    }
    setDigits(all, before);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const element = event.currentTarget;
    const start = element.selectionStart ?? 0;
    if (event.key !== 'Backspace' || start !== element.selectionEnd || start === 0) return;
    // Backspace right after a bracket or dash deletes the digit before it instead.
    if (/\d/.test(element.value[start - 1] ?? '')) return;
    event.preventDefault();
    const count = digitsOnly(element.value.slice(0, start)).length;
    if (count === 0) return;
    setDigits(digits.slice(0, count - 1) + digits.slice(count), count - 1);
  }

  const describedBy = [hint && `${inputId}-hint`, error && `${inputId}-error`].filter(Boolean).join(' ');
  return (
    <div className={`field phone-field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="phone-field__row">
        <button
          type="button"
          className="phone-field__country"
          aria-label={t('phone.chooseCountry', { name: country.name, dial: country.code })}
          aria-haspopup="dialog"
          onClick={() => setPicking(true)}
          onPointerEnter={() => void loadPicker()}
          onFocus={() => void loadPicker()}
        >
          <Flag country={country} />
          <span className="phone-field__dial">{country.code}</span>
          <ChevronDownIcon className="phone-field__chevron" />
        </button>
        <input
          ref={input}
          id={inputId}
          className="field__input phone-field__input"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          placeholder={maskPlaceholder(mask)}
          value={formatted}
          // biome-ignore lint/a11y/noAutofocus: the first field of a one-field step
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => handleChange(event.target.value, event.target.selectionStart)}
          onKeyDown={handleKeyDown}
        />
      </div>
      {country.mask.length > 1 && (
        <div className="phone-field__masks">
          <label className="field__hint" htmlFor={`${inputId}-mask`}>
            {t('phone.mask')}
          </label>
          <select
            id={`${inputId}-mask`}
            className="phone-field__mask"
            value={maskIndex}
            onChange={(event) => {
              const nextIndex = Number(event.target.value);
              const nextMask = country.mask[nextIndex] ?? mask;
              onChange({ ...value, maskIndex: nextIndex, digits: digits.slice(0, maskCapacity(nextMask)) });
            }}
          >
            {country.mask.map((option, index) => (
              <option key={option} value={index}>
                {`${country.code} ${maskPlaceholder(readableMask(option))}`}
              </option>
            ))}
          </select>
        </div>
      )}
      {hint && (
        <p id={`${inputId}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      <FieldError id={`${inputId}-error`} message={error} />
      {picking && (
        <Suspense fallback={null}>
          <CountryPicker
            open={picking}
            selected={country.iso}
            language={language}
            onClose={() => setPicking(false)}
            onSelect={(next) => {
              setPicking(false);
              // docs/product.md#states-and-transitions: choosing a country clears the phone.
              onChange({ country: next, maskIndex: 0, digits: '' });
              requestAnimationFrame(() => input.current?.focus());
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

export function initialPhoneValue(country: Country): PhoneValue {
  return { country, maskIndex: 0, digits: '' };
}
