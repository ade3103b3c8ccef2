/**
 * The signed-in frame: the sections the operator's role allows, who is signed in (in words), the
 * language, the appearance (light, dark, as the system) and signing out. Without a session, the sign-in.
 */
import { type Permission, roleAllows } from '@e-wallet/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { SignInPage } from '../features/auth/sign-in-page.tsx';
import { opsCall, session } from '../shared/api/client.ts';
import { useMe } from '../shared/api/queries.ts';
import { useNames } from '../shared/format/format.ts';
import { Preferences } from '../shared/ui/preferences.tsx';
import { Title } from '../shared/ui/ui.tsx';

const NAV: Array<{ path: string; label: string; permission: Permission }> = [
  { path: '/users', label: 'nav.users', permission: 'read' },
  { path: '/identifications', label: 'nav.identifications', permission: 'read' },
  { path: '/refunds', label: 'nav.refunds', permission: 'read' },
  { path: '/payouts', label: 'nav.payouts', permission: 'read' },
  { path: '/merchants', label: 'merchantsNav', permission: 'read' },
  { path: '/holds', label: 'nav.holds', permission: 'read' },
  { path: '/fraud-list', label: 'nav.fraudList', permission: 'read' },
  { path: '/support', label: 'nav.support', permission: 'support' },
  { path: '/jobs', label: 'nav.jobs', permission: 'read' },
  { path: '/audit', label: 'nav.audit', permission: 'read' },
  { path: '/reconciliation', label: 'nav.reconciliation', permission: 'reconcile' },
  { path: '/operators', label: 'nav.operators', permission: 'operators' },
];

export function Layout() {
  const { t } = useTranslation();
  const names = useNames();
  const me = useMe();
  if (me.isPending) return <p className="loading">{t('app.loading')}</p>;
  if (!me.data)
    return (
      <>
        <header className="top">
          <span className="brand">{t('app.name')}</span>
          <Preferences />
        </header>
        <SignInPage />
      </>
    );
  const operator = me.data;
  return (
    <>
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      <header className="top">
        <span className="brand">{t('app.name')}</span>
        <nav aria-label={t('app.menu')}>
          <ul>
            {NAV.filter((item) => roleAllows(operator.role, item.permission)).map((item) => (
              <li key={item.path}>
                <NavLink to={item.path}>{t(item.label)}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who" data-testid="operator">
          {operator.email} · {names('role', operator.role)}
        </span>
        <Preferences />
        <button
          type="button"
          className="link"
          onClick={async () => {
            await opsCall('logout').catch(() => {});
            session.clear();
          }}
        >
          {t('app.signOut')}
        </button>
      </header>
      <main id="main">
        <Outlet />
      </main>
    </>
  );
}

/** A section only some roles open; any other sees that it is not theirs. */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const { t } = useTranslation();
  const me = useMe();
  if (!me.data || !roleAllows(me.data.role, permission))
    return <p className="error">{t('OPERATOR_FORBIDDEN', { ns: 'errors' })}</p>;
  return children;
}

export function NotFound() {
  const { t } = useTranslation();
  return <Title>{t('app.notFound')}</Title>;
}
