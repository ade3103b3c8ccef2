/**
 * Settings' security panel: 'Заблокировать кошелёк' while the wallet works; while it is frozen,
 * 'Разблокировать' with a fresh SMS code to one's own phone (60-second resend countdown) and the PIN.
 */
import './security.css';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../api/auth-info.ts';
import { formatPhone } from '../format/person.ts';
import { Button } from '../ui/button.tsx';
import { OwnCodeStep, useOwnCodeStep } from './own-code-step.tsx';
import { useUnfreeze } from './security-api.ts';
import { FreezeButton } from './security-buttons.tsx';

export function SecurityPanel() {
  const { t } = useTranslation();
  const info = useAuthInfo();
  const frozen = info.data?.is_frozen;
  // 'Разблокирован' once the wallet seen frozen here is seen working (the form itself is gone by then).
  const [seenFrozen, setSeenFrozen] = useState(false);
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (frozen) {
      setSeenFrozen(true);
      setDone(false);
    } else if (frozen === false && seenFrozen) setDone(true);
  }, [frozen, seenFrozen]);
  if (!info.data) return null;
  return (
    <section id="security" className="panel settings-panel" aria-labelledby="settings-security-title">
      <h2 id="settings-security-title" className="panel__title">
        {t('security.panelTitle')}
      </h2>
      {info.data.is_frozen ? (
        <UnfreezeForm phone={info.data.phone} />
      ) : (
        <>
          {done && (
            <p className="settings-panel__done" role="status">
              {t('security.unfrozen')}
            </p>
          )}
          <p className="settings-panel__hint">{t('security.freezeHint')}</p>
        </>
      )}
      {/* Mounted while frozen too: its dialog says the freeze happened; the button hides itself. */}
      <FreezeButton block />
    </section>
  );
}

function UnfreezeForm({ phone }: { phone: string }) {
  const { t } = useTranslation();
  const unfreeze = useUnfreeze();
  const step = useOwnCodeStep(unfreeze.reset);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!step.ready || unfreeze.isPending) return;
    unfreeze.mutate({ confirm_code: step.code, pin: step.pin }, { onError: step.clearPin });
  }

  return (
    <form className="unfreeze" onSubmit={submit} noValidate data-testid="unfreeze-form">
      <p className="settings-panel__hint">{t('security.unfreezeText', { phone: formatPhone(phone) })}</p>
      <OwnCodeStep
        step={step}
        phone={phone}
        confirms="unfreeze"
        error={unfreeze.error?.message}
        sendTestId="unfreeze-send-code"
      />
      <Button type="submit" block disabled={!step.ready} busy={unfreeze.isPending}>
        {t('security.unfreeze')}
      </Button>
    </form>
  );
}
