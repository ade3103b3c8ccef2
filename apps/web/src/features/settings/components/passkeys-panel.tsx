/**
 * Passkeys: the person's passkeys with when each was added and last used, a button that creates a
 * new one on this device after the PIN (then the browser asks for the device's lock), and removing one. A passkey then
 * unlocks the app after inactivity instead of the PIN.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import {
  PasskeyCancelled,
  passkeysSupported,
  useAddPasskey,
  useDeletePasskey,
  useKeepPasskey,
  usePasskeys,
} from '../../../shared/passkeys/passkeys.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { FieldError } from '../../../shared/ui/text-field.tsx';
import { PinProof } from './pin-proof.tsx';

export function PasskeysPanel() {
  const { t } = useTranslation();
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const [done, setDone] = useState<string | null>(null);
  // Adding asks for the PIN first (docs/decisions/security-rules.md#hardening-third-round).
  const [asking, setAsking] = useState(false);
  const supported = passkeysSupported();
  const failure = [add.error].find((error) => error && !(error instanceof PasskeyCancelled));

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
        <PasskeyList passkeys={passkeys.data} disabled={add.isPending} />
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

type Passkey = AnswerOf<'passkeys'>['results'][number];

/**
 * The person's passkeys with when and on what device each was added; one a freeze suspended says so
 * and offers 'Оставить' (after the PIN) beside 'Удалить' (docs/decisions/recovery-and-four-eyes.md).
 */
export function PasskeyList({ passkeys, disabled = false }: { passkeys: Passkey[]; disabled?: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const remove = useDeletePasskey();
  const keep = useKeepPasskey();
  const [keeping, setKeeping] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const busy = disabled || remove.isPending || keep.isPending;
  return (
    <>
      <ul className="session-list" data-testid="passkey-list">
        {passkeys.map((key) => (
          <li
            key={key.id}
            className="session"
            data-testid="passkey"
            data-suspended={!!key.suspended_at || undefined}
          >
            <div className="session__main">
              <p className="session__device">{key.name}</p>
              {key.device && (
                <p className="session__meta">{t('settings.passkeys.device', { device: key.device })}</p>
              )}
              <p className="session__meta">
                {t('settings.passkeys.added', { at: formatDateTime(key.created_at, language) })}
              </p>
              {key.last_used_at && (
                <p className="session__meta">
                  {t('settings.passkeys.used', { at: formatDateTime(key.last_used_at, language) })}
                </p>
              )}
              {key.suspended_at && (
                <p className="session__meta session__warning">
                  {t('settings.passkeys.suspended', { at: formatDateTime(key.suspended_at, language) })}
                </p>
              )}
              {keeping === key.id && (
                <PinProof
                  hint={t('settings.passkeys.keepHint')}
                  busy={keep.isPending}
                  error={keep.error?.message ?? null}
                  onCancel={() => {
                    setKeeping(null);
                    keep.reset();
                  }}
                  onConfirm={(pin) =>
                    keep.mutate(
                      { id: key.id, pin },
                      {
                        onSuccess: (message) => {
                          setDone(message);
                          setKeeping(null);
                        },
                      },
                    )
                  }
                />
              )}
            </div>
            <div className="session__actions">
              {key.suspended_at && keeping !== key.id && (
                <Button
                  variant="secondary"
                  className="session__keep"
                  disabled={busy}
                  aria-label={t('settings.passkeys.keepNamed', { name: key.name })}
                  onClick={() => {
                    keep.reset();
                    setKeeping(key.id);
                  }}
                >
                  {t('settings.passkeys.keep')}
                </Button>
              )}
              <Button
                variant="ghost"
                className="session__end"
                busy={remove.isPending && remove.variables === key.id}
                disabled={busy}
                aria-label={t('settings.passkeys.removeNamed', { name: key.name })}
                onClick={() => remove.mutate(key.id, { onSuccess: (message) => setDone(message) })}
              >
                {t('settings.passkeys.remove')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <p className="settings-panel__done" role="status">
        {done}
      </p>
      <FieldError message={remove.error?.message ?? null} />
    </>
  );
}
