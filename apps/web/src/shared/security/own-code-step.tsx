/**
 * The step beyond the PIN, the same on every screen that asks it (lifting a freeze, closing the
 * wallet, confirming a held payment): a fresh code sent to one's own phone with the resend countdown,
 * then the code and the PIN. One sender and one set of words for the three.
 */
import './own-code-step.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhone } from '../format/person.ts';
import { Button } from '../ui/button.tsx';
import { CodeInput } from '../ui/code-input.tsx';
import { type OwnCodeFor, useOwnCode } from './own-code.ts';

/** What the person has typed in the step; `onEdit` runs on every keystroke (to clear a refusal). */
export function useOwnCodeStep(onEdit?: () => void) {
  const [code, setCode] = useState('');
  const [pin, setPin] = useState('');
  return {
    code,
    pin,
    /** Four digits of the code and of the PIN. */
    ready: /^\d{4}$/.test(code) && /^\d{4}$/.test(pin),
    /** After a refusal the PIN is typed again. */
    clearPin: () => setPin(''),
    onCode: (value: string) => {
      setCode(value);
      onEdit?.();
    },
    onPin: (value: string) => {
      setPin(value);
      onEdit?.();
    },
  };
}

export interface OwnCodeStepProps {
  step: ReturnType<typeof useOwnCodeStep>;
  /** The person's own phone, where the code goes; the button waits until it is known. */
  phone: string | undefined;
  /** What the code confirms: its SMS says so. */
  confirms: OwnCodeFor;
  /** The server's words on the last try, shown under the PIN. */
  error?: string | null;
  sendTestId?: string;
}

export function OwnCodeStep({ step, phone, confirms, error, sendTestId }: OwnCodeStepProps) {
  const { t } = useTranslation();
  const ownCode = useOwnCode(phone, confirms);
  const { left, sent } = ownCode;
  return (
    <div className="own-code-step">
      <Button
        variant={sent ? 'link' : 'secondary'}
        onClick={() => void ownCode.send()}
        busy={ownCode.sending}
        disabled={!phone || left > 0}
        data-testid={sendTestId}
      >
        {left > 0
          ? t('security.sendAgainIn', { seconds: left })
          : sent
            ? t('security.sendAgain')
            : t('security.sendCode')}
      </Button>
      <p className="form-note" role="status">
        {ownCode.error ?? (sent && phone ? t('security.codeSent', { phone: formatPhone(phone) }) : null)}
      </p>
      {sent && (
        <>
          <CodeInput
            value={step.code}
            onChange={step.onCode}
            label={t('security.codeLabel')}
            digitLabel={(n, total) => t('security.codeDigit', { n, total })}
            autoFocus
          />
          <CodeInput
            value={step.pin}
            onChange={step.onPin}
            label={t('security.pinLabel')}
            digitLabel={(n, total) => t('security.pinDigit', { n, total })}
            error={error ?? null}
            secret
          />
        </>
      )}
    </div>
  );
}
