/** 'Бизнес' on Settings: the way to the merchant account (docs/decisions/merchants.md#merchants). */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../shared/routes.ts';

export function BusinessPanel() {
  const { t } = useTranslation();
  return (
    <section className="panel settings-panel" aria-labelledby="settings-business-title">
      <h2 id="settings-business-title" className="panel__title">
        {t('merchants.title')}
      </h2>
      <p className="settings-panel__hint">{t('merchants.settingsText')}</p>
      <Link className="button button--secondary" to={pathTo('Business')} data-testid="settings-business">
        {t('merchants.open')}
      </Link>
    </section>
  );
}
