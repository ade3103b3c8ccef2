/**
 * What the profile panel shows in the identification slot until the identification feature
 * brings its own section (upgrade, status refresh): the current level, from auth info.
 */
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';

export function IdentificationSummary() {
  const { t } = useTranslation();
  const { data: user } = useAuthInfo();
  if (!user) return null;
  return (
    <>
      <h3 className="profile-panel__section-title">{t('profile.identification')}</h3>
      <p className="profile-panel__level">
        {t('profile.level', { level: t(`profile.levels.${user.identification_level.name}`) })}
      </p>
    </>
  );
}
