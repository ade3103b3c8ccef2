/**
 * PIN change with the old PIN: three four-digit entries (current, new, new again). The server
 * checks the old PIN and answers PIN_INVALID (attempts left), PIN_LOCKED or PIN_SAME, shown as sent.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/button.tsx';
import { CodeInput } from '../../../shared/ui/code-input.tsx';
import { useChangePin } from '../api/change-pin.ts';

const isPin = (value: string) => /^\d{4}$/.test(value);

export function PinChangePanel() {
  const { t } = useTranslation();
  const changePin = useChangePin();
  const [oldPin, setOldPin] = useState('');
  const [newPin, setNewPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const mismatch = isPin(newPin) && isPin(repeat) && newPin !== repeat;
  const ready = isPin(oldPin) && isPin(newPin) && isPin(repeat) && !mismatch;
  const digitLabel = (n: number, total: number) => t('settings.pin.digit', { n, total });

  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setDone(false);
    if (changePin.isError) changePin.reset();
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || changePin.isPending) return;
    changePin.mutate(
      { old_pin: oldPin, new_pin: newPin },
      {
        onSuccess: () => {
          setOldPin('');
          setNewPin('');
          setRepeat('');
          setDone(true);
        },
        // A wrong old PIN is typed again from the start.
        onError: () => setOldPin(''),
      },
    );
  }

  return (
    <section className="panel settings-panel" aria-labelledby="settings-pin-title">
      <h2 id="settings-pin-title" className="panel__title">
        {t('settings.pin.title')}
      </h2>
      <p className="settings-panel__hint">{t('settings.pin.hint')}</p>
      <form className="pin-change" onSubmit={submit} noValidate>
        <CodeInput
          value={oldPin}
          onChange={edit(setOldPin)}
          label={t('settings.pin.old')}
          digitLabel={digitLabel}
          error={changePin.error?.message ?? null}
          secret
        />
        <CodeInput
          value={newPin}
          onChange={edit(setNewPin)}
          label={t('settings.pin.new')}
          digitLabel={digitLabel}
          secret
        />
        <CodeInput
          value={repeat}
          onChange={edit(setRepeat)}
          label={t('settings.pin.repeat')}
          digitLabel={digitLabel}
          error={mismatch ? t('settings.pin.mismatch') : null}
          secret
        />
        <Button type="submit" block disabled={!ready} busy={changePin.isPending}>
          {t('settings.pin.submit')}
        </Button>
        <p className="settings-panel__done" role="status">
          {done ? t('settings.pin.changed') : null}
        </p>
      </form>
    </section>
  );
}
