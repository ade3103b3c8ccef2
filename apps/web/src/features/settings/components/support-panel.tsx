/** 'Поддержка' on Settings: the way to the support chat (docs/decisions/support.md#support-chat). */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../shared/routes.ts';

export function SupportPanel() {
  const { t } = useTranslation();
  return (
    <section className="panel settings-panel" aria-labelledby="settings-support-title">
      <h2 id="settings-support-title" className="panel__title">
        {t('support.title')}
      </h2>
      <p className="settings-panel__hint">{t('support.settingsText')}</p>
      <Link className="button button--secondary" to={pathTo('Support')} data-testid="settings-support">
        {t('support.open')}
      </Link>
    </section>
  );
}
