/** A minimal, honest home until the wallet feature replaces it: who is signed in, nothing more. */
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../shared/api/auth-info.ts';

export function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useAuthInfo();
  return (
    <section className="home-page" aria-labelledby="home-title">
      <h1 id="home-title" className="home-page__title">
        {t('home.title')}
      </h1>
      <div className="home-card">
        <h2 className="home-card__title">{t('home.ready')}</h2>
        {user && <p className="home-card__text">{t('home.text', { phone: user.phone })}</p>}
      </div>
    </section>
  );
}

export default HomePage;
