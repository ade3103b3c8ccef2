/** The header of the signed-in area: logo link home, greeting with the first name, sign-out. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLogout } from '../../features/auth/api/logout.ts';
import { useAuthInfo } from '../../shared/api/auth-info.ts';
import { LogoutIcon } from '../../shared/ui/icons.tsx';
import { Logo } from '../auth-layout/logo.tsx';

export function HomeHeader() {
  const { t } = useTranslation();
  const { data: user } = useAuthInfo();
  const logout = useLogout();
  return (
    <header className="home-header">
      <div className="home-header__inner">
        <Link to="/" className="home-header__home" aria-label={t('layout.home')}>
          <Logo />
        </Link>
        <div className="home-header__greeting">
          <p className="home-header__hello" data-testid="greeting">
            {user ? t('layout.greeting', { name: user.first_name }) : t('layout.greetingAnonymous')}
          </p>
          <p className="home-header__subtitle">{t('layout.subtitle')}</p>
        </div>
        <button
          type="button"
          className="button button--ghost home-header__logout"
          aria-label={t('layout.logout')}
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
        >
          <LogoutIcon />
          <span>{t('layout.logout')}</span>
        </button>
      </div>
    </header>
  );
}
