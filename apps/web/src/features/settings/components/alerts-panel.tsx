/**
 * Notifications in Settings (docs/decisions.md section 14): push on this device on or off, and which
 * pushes come. Money out is always told, so its switch is on and cannot be changed.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/button.tsx';
import {
  currentSubscription,
  type PushOutcome,
  pushSupported,
  turnPushOff,
  turnPushOn,
  useAlertSettings,
  useUpdateAlerts,
} from '../api/alerts.ts';

export function AlertsPanel() {
  const { t } = useTranslation();
  const settings = useAlertSettings();
  const update = useUpdateAlerts();
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [outcome, setOutcome] = useState<PushOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    void currentSubscription()
      .then((subscription) => current && setSubscribed(!!subscription))
      .catch(() => current && setSubscribed(false));
    return () => {
      current = false;
    };
  }, []);

  async function toggle() {
    setBusy(true);
    try {
      if (subscribed) {
        await turnPushOff();
        setSubscribed(false);
        setOutcome(null);
      } else {
        const answer = await turnPushOn();
        setOutcome(answer);
        setSubscribed(answer === 'on');
      }
      void settings.refetch();
    } finally {
      setBusy(false);
    }
  }

  const data = settings.data;
  const problem = outcome && outcome !== 'on' ? t(`settings.alerts.${outcome}`) : null;
  return (
    <section
      className="panel settings-panel"
      aria-labelledby="settings-alerts-title"
      data-testid="alerts-panel"
    >
      <h2 id="settings-alerts-title" className="panel__title">
        {t('settings.alerts.title')}
      </h2>
      <p className="settings-panel__hint">{t('settings.alerts.hint')}</p>
      <div className="alerts__push">
        <span>{subscribed ? t('settings.alerts.pushEnabled') : t('settings.alerts.push')}</span>
        {pushSupported() ? (
          <Button variant="secondary" onClick={() => void toggle()} disabled={busy || subscribed === null}>
            {subscribed ? t('settings.alerts.pushOff') : t('settings.alerts.pushOn')}
          </Button>
        ) : (
          <span className="settings-panel__hint">{t('settings.alerts.unsupported')}</span>
        )}
      </div>
      {problem && (
        <p className="settings-panel__hint" role="alert">
          {problem}
        </p>
      )}
      {data && (
        <fieldset className="alerts__kinds">
          <label className="alerts__kind">
            <input
              type="checkbox"
              checked={data.push_money_in}
              onChange={(event) => update.mutate({ push_money_in: event.target.checked })}
            />
            <span>{t('settings.alerts.moneyIn')}</span>
          </label>
          <label className="alerts__kind">
            <input type="checkbox" checked disabled aria-describedby="alerts-money-out-hint" />
            <span>{t('settings.alerts.moneyOut')}</span>
          </label>
          <p id="alerts-money-out-hint" className="settings-panel__hint">
            {t('settings.alerts.moneyOutHint')}
          </p>
          <label className="alerts__kind">
            <input
              type="checkbox"
              checked={data.push_security}
              onChange={(event) => update.mutate({ push_security: event.target.checked })}
            />
            <span>{t('settings.alerts.security')}</span>
          </label>
        </fieldset>
      )}
    </section>
  );
}
