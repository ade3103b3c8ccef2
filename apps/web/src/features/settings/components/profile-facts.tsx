/** Settings 'Профиль': the person's e-mail, phone and register date, from auth info. */
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { formatDate } from '../../../shared/format/date.ts';
import { formatPhone } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';

export function ProfileFacts() {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const { data: user, isPending, isError, refetch } = useAuthInfo();
  return (
    <section className="panel settings-panel" aria-labelledby="settings-profile-title">
      <h2 id="settings-profile-title" className="panel__title panel__title--spaced">
        {t('settings.profile')}
      </h2>
      {isPending ? (
        <AreaLoading rows={3} />
      ) : isError || !user ? (
        <AreaError onRetry={() => refetch()} />
      ) : (
        <dl className="settings-facts" data-testid="settings-profile">
          <div>
            <dt>{t('settings.name')}</dt>
            <dd>{named(`${user.first_name} ${user.last_name}`)}</dd>
          </div>
          <div>
            <dt>{t('settings.email')}</dt>
            <dd data-testid="settings-email">{user.email}</dd>
          </div>
          <div>
            <dt>{t('settings.phone')}</dt>
            <dd data-testid="settings-phone">{formatPhone(user.phone)}</dd>
          </div>
          <div>
            <dt>{t('settings.registeredAt')}</dt>
            <dd data-testid="settings-registered">
              <time dateTime={user.registered_at}>{formatDate(user.registered_at, language)}</time>
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
