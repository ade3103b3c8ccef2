/**
 * After unfreezing (Settings' unfreeze flow): a freeze suspended every passkey and push address, so
 * the person sees their passkeys and sign-ins with dates and devices, keeps their own and removes
 * a thief's (docs/decisions/recovery-and-four-eyes.md). Shown while any passkey waits for that choice.
 */
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { usePasskeys } from '../../../shared/passkeys/passkeys.ts';
import { useSessions } from '../api/sessions.ts';
import { PasskeyList } from './passkeys-panel.tsx';
import { SessionRow } from './sessions-panel.tsx';

export function RecoveryReview() {
  const { t } = useTranslation();
  const info = useAuthInfo();
  const passkeys = usePasskeys();
  const sessions = useSessions();
  const waiting = passkeys.data?.some((key) => key.suspended_at !== null) ?? false;
  if (info.data?.is_frozen !== false || !waiting || !passkeys.data) return null;
  return (
    <section
      className="panel settings-panel"
      aria-labelledby="settings-review-title"
      data-testid="recovery-review"
    >
      <h2 id="settings-review-title" className="panel__title">
        {t('settings.review.title')}
      </h2>
      <p className="settings-panel__hint">{t('settings.review.hint')}</p>
      <h3 className="recovery-review__subtitle">{t('settings.review.passkeys')}</h3>
      <PasskeyList passkeys={passkeys.data} />
      <h3 className="recovery-review__subtitle">{t('settings.review.sessions')}</h3>
      <ul className="session-list">
        {(sessions.data ?? []).map((session) => (
          <SessionRow key={session.id} session={session} ending={false} disabled onEnd={() => undefined} />
        ))}
      </ul>
    </section>
  );
}
