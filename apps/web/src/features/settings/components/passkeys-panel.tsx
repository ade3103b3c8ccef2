/**
 * Passkeys: the person's passkeys with when each was added and last used, a button that creates a
 * new one on this device after the PIN (then the browser asks for the device's lock), and removing one. A passkey then
 * unlocks the app after inactivity instead of the PIN.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import {
  PasskeyCancelled,
  passkeysSupported,
  useAddPasskey,
  useDeletePasskey,
  usePasskeys,
} from '../../../shared/passkeys/passkeys.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { FieldError } from '../../../shared/ui/text-field.tsx';
import { PinProof } from './pin-proof.tsx';

export function PasskeysPanel() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useDeletePasskey();
  const [done, setDone] = useState<string | null>(null);
  // Adding asks for the PIN first (docs/decisions.md section 17).
  const [asking, setAsking] = useState(false);
  const supported = passkeysSupported();
  const failure = [add.error, remove.error].find((error) => error && !(error instanceof PasskeyCancelled));

  return (
    <section
      className="panel settings-panel"
      aria-labelledby="settings-passkeys-title"
      data-testid="passkeys"
    >
      <h2 id="settings-passkeys-title" className="panel__title">
        {t('settings.passkeys.title')}
      </h2>
      <p className="settings-panel__hint">{t('settings.passkeys.hint')}</p>
      {passkeys.isPending ? (
        <AreaLoading rows={1} />
      ) : passkeys.isError ? (
        <AreaError onRetry={() => passkeys.refetch()} />
      ) : passkeys.data.length === 0 ? (
        <p className="settings-panel__hint">{t('settings.passkeys.none')}</p>
      ) : (
        <ul className="session-list" data-testid="passkey-list">
          {passkeys.data.map((key) => (
            <li key={key.id} className="session" data-testid="passkey">
              <div className="session__main">
                <p className="session__device">{key.name}</p>
                <p className="session__meta">
                  {t('settings.passkeys.added', { at: formatDateTime(key.created_at, language) })}
                </p>
                {key.last_used_at && (
                  <p className="session__meta">
                    {t('settings.passkeys.used', { at: formatDateTime(key.last_used_at, language) })}
                  </p>
                )}
              </div>
              <Button
                variant="ghost"
                className="session__end"
                busy={remove.isPending && remove.variables === key.id}
                disabled={remove.isPending || add.isPending}
                aria-label={t('settings.passkeys.removeNamed', { name: key.name })}
                onClick={() => remove.mutate(key.id, { onSuccess: (message) => setDone(message) })}
              >
                {t('settings.passkeys.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {supported && asking ? (
        <PinProof
          hint={t('settings.passkeys.pinHint')}
          busy={add.isPending}
          error={failure?.message ?? null}
          onCancel={() => {
            setAsking(false);
            add.reset();
          }}
          onConfirm={(pin) =>
            add.mutate(
              { pin },
              {
                onSuccess: (message) => {
                  setDone(message);
                  setAsking(false);
                },
              },
            )
          }
        />
      ) : supported ? (
        <Button
          block
          disabled={remove.isPending}
          onClick={() => {
            setDone(null);
            add.reset();
            setAsking(true);
          }}
        >
          {t('settings.passkeys.add')}
        </Button>
      ) : (
        <p className="settings-panel__hint">{t('settings.passkeys.unsupported')}</p>
      )}
      <p className="settings-panel__done" role="status">
        {done}
      </p>
      {!asking && <FieldError message={failure?.message ?? null} />}
    </section>
  );
}
