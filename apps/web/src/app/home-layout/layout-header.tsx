/**
 * The header of the signed-in area (docs/product.md 'Home layout'): the avatar links home, the
 * greeting names the user, the navigation highlights the current route (aria-current), and the
 * bell opens the notifications. On a phone the navigation sits at the bottom of the screen and a
 * profile button leads to the profile panel, which then follows the page.
 */
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { useAuthInfo } from '../../shared/api/auth-info.ts';
import { initialOf } from '../../shared/format/person.ts';
import { useName } from '../../shared/format/person-name.ts';
import { pathTo, type RouteName } from '../../shared/routes.ts';
import {
  CardsIcon,
  ClockIcon,
  GearIcon,
  HomeIcon,
  PiggyIcon,
  QrIcon,
  SendIcon,
  UserIcon,
} from '../../shared/ui/money-icons.tsx';

const NAVIGATION: {
  name: RouteName & ('Home' | 'Wallet' | 'WalletSave' | 'Payment' | 'Savings' | 'History' | 'Settings');
  Icon: typeof HomeIcon;
}[] = [
  { name: 'Home', Icon: HomeIcon },
  { name: 'Wallet', Icon: CardsIcon },
  { name: 'WalletSave', Icon: SendIcon },
  { name: 'Payment', Icon: QrIcon },
  { name: 'Savings', Icon: PiggyIcon },
  { name: 'History', Icon: ClockIcon },
  { name: 'Settings', Icon: GearIcon },
];

export interface LayoutHeaderProps {
  notificationsOpen: boolean;
  onNotificationsOpenChange: (open: boolean) => void;
  onShowProfile: () => void;
  profileId: string;
  /** The phone's profile panel is shown (the profile button is pressed). */
  profileOpen?: boolean;
  /** False on Settings, which shows the profile itself. */
  profileAvailable?: boolean;
}

type Section = (typeof NAVIGATION)[number]['name'];

/**
 * The menu item a screen belongs to: 'Счета' for the accounts and their operations, 'Перевод' for
 * the transfer and its neighbours (requests, scheduled transfers, a request's pay link).
 */
export function sectionOf(pathname: string): Section | null {
  const under = (path: string) => pathname === path || pathname.startsWith(`${path}/`);
  if (pathname === pathTo('Home')) return 'Home';
  const transfer = [pathTo('WalletSave'), pathTo('WalletRequest'), pathTo('Schedules')];
  if (transfer.some(under) || pathname.startsWith(pathTo('PayRequest', { token: '' }))) return 'WalletSave';
  // Savings has its own item: people looked for it beside the money, not inside 'Счета'.
  if (under(pathTo('Savings')) || under(pathTo('Budgets'))) return 'Savings';
  if (under(pathTo('Wallet'))) return 'Wallet';
  if (under(pathTo('Payment'))) return 'Payment';
  if (under(pathTo('History'))) return 'History';
  // Support opens from Settings (and the profile panel): it lights Settings.
  if (under(pathTo('Settings')) || under(pathTo('Support'))) return 'Settings';
  return null;
}

export function LayoutHeader({
  notificationsOpen,
  onNotificationsOpenChange,
  onShowProfile,
  profileId,
  profileOpen = false,
  profileAvailable = true,
}: LayoutHeaderProps) {
  const { t } = useTranslation();
  const named = useName();
  const { data: user } = useAuthInfo();
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  return (
    <header className="home-header">
      <div className="home-header__inner">
        <Link to={pathTo('Home')} className="home-header__avatar" aria-label={t('layout.home')}>
          <span aria-hidden="true">{user ? initialOf(named(user.first_name)) : ''}</span>
        </Link>
        <div className="home-header__greeting">
          <p className="home-header__hello" data-testid="greeting">
            {user ? t('layout.greeting', { name: named(user.first_name) }) : t('layout.greetingAnonymous')}
          </p>
          <p className="home-header__subtitle">{t('layout.subtitle')}</p>
        </div>
        <nav className="home-nav" aria-label={t('nav.label')}>
          <ul className="home-nav__list">
            {NAVIGATION.map(({ name, Icon }) => (
              <li key={name}>
                <Link
                  to={pathTo(name)}
                  className="home-nav__link"
                  aria-current={section === name ? 'page' : undefined}
                >
                  <Icon className="home-nav__icon" />
                  <span className="home-nav__label">{t(`nav.${name}`)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="home-header__tools">
          <NotificationBell open={notificationsOpen} onOpenChange={onNotificationsOpenChange} />
          {profileAvailable && (
            <button
              type="button"
              className="home-header__profile"
              aria-label={t('profile.open')}
              aria-controls={profileId}
              aria-expanded={profileOpen}
              onClick={onShowProfile}
            >
              <UserIcon />
            </button>
          )}
        </div>
      </div>
    </header>
  );
}
