/** The page of a signed-in route whose feature is not built yet: its title and a short note. */
import { useTranslation } from 'react-i18next';
import type { RouteName } from '../../shared/routes.ts';

export function PlaceholderPage({ name }: { name: RouteName }) {
  const { t } = useTranslation();
  const title = t(`routes.${name}`);
  return (
    <section className="home-page" aria-labelledby="page-title">
      <h1 id="page-title" className="home-page__title">
        {title}
      </h1>
      <div className="home-card">
        <p className="home-card__text">{t('layout.placeholder', { title })}</p>
      </div>
    </section>
  );
}

export default PlaceholderPage;
