/**
 * The layout of /auth, /auth/login and /auth/register (spec 'Auth layout'): the logo, a Russian
 * background image when the language is Russian, and on every auth route but the landing a title
 * style that applies on phones only (`auth-layout--form`).
 */
import './auth-layout.css';
import { brand } from 'virtual:brand';
import { clsx } from 'clsx';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { formatMoney } from '../../shared/format/money.ts';
import { currentLanguage, setLanguage } from '../../shared/i18n/i18n.ts';
import { useRouteName } from '../../shared/route-name.ts';
import { ErrorBoundary } from '../error-boundary.tsx';
import { PageSpinner } from '../page-spinner.tsx';
import { Logo } from './logo.tsx';

/**
 * Before sign-in, the other language one tap away on every screen, its name in its own words. The
 * choice stays on this device and goes on into registration: the codes and the wallet speak it.
 */
function LanguageSwitch() {
  const { t } = useTranslation();
  const other = currentLanguage() === 'ru' ? 'en' : 'ru';
  return (
    <button
      type="button"
      className="auth-language"
      lang={other}
      data-testid="auth-language"
      onClick={() => void setLanguage(other)}
    >
      {t('auth.language')}
    </button>
  );
}

export function AuthLayout() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const landing = useRouteName() === 'AuthIn';
  return (
    <div
      className={clsx(
        'auth-layout',
        i18n.language === 'ru' && 'auth-layout--ru',
        landing ? 'auth-layout--landing' : 'auth-layout--form',
      )}
    >
      <aside className="auth-layout__brand" aria-hidden="true">
        <div className="auth-layout__brand-inner">
          <Logo inverted />
          <p className="auth-layout__tagline">{t('auth.landing.brandTitle')}</p>
          <p className="auth-layout__subline">{t('auth.landing.brandText')}</p>
          <div className="auth-layout__cards">
            <div className="brand-card brand-card--back" />
            <div className="brand-card">
              <span className="brand-card__chip" />
              <span className="brand-card__balance">
                {formatMoney('12480.00', 'RUB', i18n.language === 'en' ? 'en' : 'ru')}
              </span>
              <span className="brand-card__number">•••• 4821</span>
            </div>
          </div>
        </div>
      </aside>
      <div className="auth-layout__main">
        <header className="auth-layout__header">
          <Link to="/auth" className="auth-layout__logo-link" aria-label={brand.name}>
            <Logo inverted />
          </Link>
          <LanguageSwitch />
        </header>
        <main className="auth-layout__content">
          <ErrorBoundary key={pathname}>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
    </div>
  );
}
