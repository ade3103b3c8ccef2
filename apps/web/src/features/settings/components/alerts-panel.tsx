/**
 * Notifications in Settings (docs/decisions/live-wallet.md#the-live-wallet): push on this device on or off,
 * and which pushes come. Money out is always told, so its switch is on and cannot be changed. Push on and
 * security alerts off ask for the PIN first (docs/decisions/security-rules.md#hardening-third-round).
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
import { PinProof } from './pin-proof.tsx';

export function AlertsPanel() {
  const { t } = useTranslation();
  const settings = useAlertSettings();
  const update = useUpdateAlerts();
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [outcome, setOutcome] = useState<PushOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  // Push on a new device and security alerts off need the PIN
  // (docs/decisions/security-rules.md#hardening-third-round).
  const [asking, setAsking] = useState<'push' | 'security' | null>(null);

  useEffect(() => {
    let current = true;
    void currentSubscription()
      .then((subscription) => current && setSubscribed(!!subscription))
      .catch(() => current && setSubscribed(false));
    return () => {
      current = false;
    };
  }, []);

  async function turnOff() {
    setBusy(true);
    try {
      await turnPushOff();
      setSubscribed(false);
      setOutcome(null);
      void settings.refetch();
    } finally {
      setBusy(false);
    }
  }

  async function turnOn(pin: string) {
    setBusy(true);
    try {
      const answer = await turnPushOn(pin);
      setOutcome(answer);
      if (answer === 'on') {
        setSubscribed(true);
        setAsking(null);
      } else if (typeof answer !== 'object') setAsking(null);
      void settings.refetch();
    } finally {
      setBusy(false);
    }
  }

  const data = settings.data;
  const refused = typeof outcome === 'object' && outcome ? outcome.refused : null;
  const problem =
    outcome && outcome !== 'on' && typeof outcome !== 'object' ? t(`settings.alerts.${outcome}`) : null;
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
          <Button
            variant="secondary"
            onClick={() => {
              setOutcome(null);
              if (subscribed) void turnOff();
              else setAsking('push');
            }}
            disabled={busy || subscribed === null || asking !== null}
          >
            {subscribed ? t('settings.alerts.pushOff') : t('settings.alerts.pushOn')}
          </Button>
        ) : (
          <span className="settings-panel__hint">{t('settings.alerts.unsupported')}</span>
        )}
      </div>
      {asking === 'push' && (
        <PinProof
          hint={t('settings.alerts.pushPinHint')}
          busy={busy}
          error={refused}
          onConfirm={(pin) => void turnOn(pin)}
          onCancel={() => {
            setAsking(null);
            setOutcome(null);
          }}
        />
      )}
      {asking === 'security' && (
        <PinProof
          hint={t('settings.alerts.securityOffPinHint')}
          busy={update.isPending}
          error={update.error?.message ?? null}
          onConfirm={(pin) =>
            update.mutate({ push_security: false, pin }, { onSuccess: () => setAsking(null) })
          }
          onCancel={() => {
            setAsking(null);
            update.reset();
          }}
        />
      )}
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
              disabled={asking !== null}
              // Switching security alerts off asks for the PIN first; on needs nothing.
              onChange={(event) =>
                event.target.checked ? update.mutate({ push_security: true }) : setAsking('security')
              }
            />
            <span>{t('settings.alerts.security')}</span>
          </label>
        </fieldset>
      )}
    </section>
  );
}
