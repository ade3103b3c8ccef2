/**
 * The PIN asked before a change of how money is confirmed or where alerts go (adding a passkey,
 * push on a new device, security alerts off): the server refuses such a change on the session
 * alone (docs/decisions/security-rules.md#hardening-third-round). The PIN's four boxes, then Continue or
 * Cancel.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/button.tsx';
import { CodeInput } from '../../../shared/ui/code-input.tsx';

export interface PinProofProps {
  /** What the PIN is for, shown above the boxes. */
  hint: string;
  busy: boolean;
  /** The server's refusal (a wrong PIN, a lock), shown under the boxes. */
  error: string | null;
  onConfirm: (pin: string) => void;
  onCancel: () => void;
}

export function PinProof({ hint, busy, error, onConfirm, onCancel }: PinProofProps) {
  const { t } = useTranslation();
  const [pin, setPin] = useState('');
  const ready = /^\d{4}$/.test(pin);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || busy) return;
    onConfirm(pin);
    // A refused PIN is typed again from the start.
    setPin('');
  }

  return (
    <form className="pin-step" onSubmit={submit} noValidate data-testid="pin-step">
      <p className="settings-panel__hint">{hint}</p>
      <CodeInput
        value={pin}
        onChange={setPin}
        label={t('settings.proof.pin')}
        digitLabel={(n, total) => t('settings.pin.digit', { n, total })}
        error={error}
        secret
        autoFocus
      />
      <div className="pin-step__actions">
        <Button type="submit" disabled={!ready} busy={busy}>
          {t('settings.proof.continue')}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel} disabled={busy}>
          {t('settings.proof.cancel')}
        </Button>
      </div>
    </form>
  );
}
