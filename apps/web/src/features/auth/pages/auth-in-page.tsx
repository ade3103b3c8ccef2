/**
 * The landing (AuthIn): image, title, Register button, 'already have an account' with a login link,
 * and the e-money operator's identity and licence (docs/decisions.md section 18).
 */
import '../auth.css';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '../../../shared/routes.ts';
import { OperatorFacts } from '../../../shared/terms/operator-facts.tsx';
import landingImageUrl from '../assets/landing.svg';

export function AuthInPage() {
  const { t } = useTranslation();
  return (
    <section className="auth-page auth-landing" aria-labelledby="landing-title">
      <img
        className="auth-landing__image"
        src={landingImageUrl}
        alt={t('auth.landing.imageAlt')}
        width={320}
        height={220}
      />
      <div className="auth-landing__text">
        <h1 id="landing-title" className="auth-title">
          {t('auth.landing.title')}
        </h1>
        <p className="auth-lead">{t('auth.landing.text')}</p>
      </div>
      <div className="auth-actions">
        <Link to={ROUTES.Register} className="button button--primary button--block">
          {t('auth.landing.register')}
        </Link>
      </div>
      <p className="auth-footer">
        {t('auth.landing.haveAccount')} <Link to={ROUTES.LogIn}>{t('auth.landing.login')}</Link>
      </p>
      <OperatorFacts />
    </section>
  );
}

export default AuthInPage;
