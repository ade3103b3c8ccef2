/**
 * 'Карта': digits grouped in fours while typing, 16 digits, at most 19 characters
 * (docs/product.md#validation-rules).
 */
import { clsx } from 'clsx';
import { useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CARD_MAX_LENGTH,
  cardDigits,
  formatCardInput,
  groupCard,
} from '../../../shared/ui/pay-modal/card-number.ts';
import { FieldError } from '../../../shared/ui/text-field.tsx';

export function CardField({
  digits,
  onChange,
  error,
  disabled,
}: {
  digits: string;
  onChange: (digits: string) => void;
  error?: string | null;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);

  useLayoutEffect(() => {
    if (caret.current !== null && input.current && document.activeElement === input.current) {
      input.current.setSelectionRange(caret.current, caret.current);
      caret.current = null;
    }
  });

  return (
    <div className={clsx('field card-field', error && 'field--invalid')}>
      <label className="field__label" htmlFor={id}>
        {t('withdrawalPage.card')}
      </label>
      <input
        ref={input}
        id={id}
        className="field__input card-field__input"
        type="text"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder={t('withdrawalPage.cardPlaceholder')}
        maxLength={CARD_MAX_LENGTH}
        pattern="[0-9 ]{13,19}"
        required
        value={groupCard(digits)}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={clsx(`${id}-hint`, error && `${id}-error`)}
        onChange={(event) => {
          const next = formatCardInput(event.target.value, event.target.selectionStart);
          caret.current = next.caret;
          onChange(cardDigits(next.value));
        }}
      />
      <p id={`${id}-hint`} className="field__hint">
        {t('withdrawalPage.cardHint')}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
