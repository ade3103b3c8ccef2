/**
 * The code entry shared by register step 2 and login step 2: the phone the code went to, the
 * four boxes, the server's message under them, the main button (enabled at four digits),
 * 'send again' and a back button.
 */
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/button.tsx';
import { CodeInput } from '../../../shared/ui/code-input.tsx';
import { ArrowLeftIcon, SmsIcon } from '../../../shared/ui/icons.tsx';
import { isFourDigits } from '../validators.ts';

export interface CodeStepProps {
  title: string;
  text: string;
  phone: string;
  code: string;
  onCodeChange: (code: string) => void;
  error: string | null;
  /** A neutral line under the code: 'a new code has been sent', or the resend cooldown. */
  note: ReactNode;
  submitLabel: string;
  onSubmit: () => void;
  submitting: boolean;
  onResend: () => void;
  resending: boolean;
  /** Seconds until another code may be asked (the server refuses earlier ones); 0 when it may. */
  resendIn?: number;
  backLabel: string;
  onBack: () => void;
  above?: ReactNode;
}

export function CodeStep(props: CodeStepProps) {
  const { t } = useTranslation();
  const ready = isFourDigits(props.code);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (ready && !props.submitting) props.onSubmit();
  }
  return (
    <form className="auth-page" onSubmit={submit} noValidate>
      <button type="button" className="auth-back" onClick={props.onBack}>
        <ArrowLeftIcon />
        {props.backLabel}
      </button>
      {props.above}
      <div className="auth-heading">
        <span className="auth-heading__icon">
          <SmsIcon />
        </span>
        <h1 className="auth-title">{props.title}</h1>
        <p className="auth-lead">
          {props.text} <span className="auth-phone">{props.phone}</span>
        </p>
      </div>
      <CodeInput
        value={props.code}
        onChange={props.onCodeChange}
        label={t('auth.code.label')}
        digitLabel={(n, total) => t('auth.code.digit', { n, total })}
        error={props.error}
        autoFocus
      />
      {props.note && (
        <p className="form-note" role="status">
          {props.note}
        </p>
      )}
      <div className="auth-actions">
        <Button type="submit" block disabled={!ready} busy={props.submitting}>
          {props.submitLabel}
        </Button>
        <Button
          variant="link"
          onClick={props.onResend}
          busy={props.resending}
          disabled={(props.resendIn ?? 0) > 0}
          data-testid="resend-code"
        >
          {(props.resendIn ?? 0) > 0
            ? t('auth.code.sendAgainIn', { seconds: props.resendIn })
            : t('auth.code.sendAgain')}
        </Button>
      </div>
    </form>
  );
}
