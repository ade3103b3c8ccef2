/**
 * Register step 3: create the four-digit PIN, typed twice as on PIN change. No back button
 * (docs/product.md#screens-and-routes).
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/button.tsx';
import { CodeInput } from '../../../shared/ui/code-input.tsx';
import { isFourDigits } from '../validators.ts';

export interface PinStepProps {
  pin: string;
  onPinChange: (pin: string) => void;
  error: string | null;
  onSubmit: () => void;
  submitting: boolean;
  above?: ReactNode;
}

export function PinStep({ pin, onPinChange, error, onSubmit, submitting, above }: PinStepProps) {
  const { t } = useTranslation();
  const [repeat, setRepeat] = useState('');
  const mismatch = isFourDigits(pin) && isFourDigits(repeat) && pin !== repeat;
  const ready = isFourDigits(pin) && repeat === pin;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (ready && !submitting) onSubmit();
  }
  return (
    <form className="auth-page" onSubmit={submit} noValidate>
      {above}
      <div className="auth-heading">
        <h1 className="auth-title">{t('auth.register.pinTitle')}</h1>
        <p className="auth-lead">{t('auth.register.pinText')}</p>
      </div>
      <CodeInput
        value={pin}
        onChange={onPinChange}
        label={t('auth.register.pinLabel')}
        digitLabel={(n, total) => t('auth.code.digit', { n, total })}
        error={error}
        secret
        autoFocus
      />
      <CodeInput
        value={repeat}
        onChange={setRepeat}
        label={t('auth.register.pinRepeat')}
        digitLabel={(n, total) => t('auth.register.pinRepeatDigit', { n, total })}
        error={mismatch ? t('auth.register.pinMismatch') : null}
        secret
      />
      <div className="auth-actions">
        <Button type="submit" block disabled={!ready} busy={submitting}>
          {t('auth.register.continue')}
        </Button>
      </div>
    </form>
  );
}
