/**
 * The back office: the operator signs in, then moves between the screens their role allows. Routes are
 * plain paths (the server answers index.html for each), links are real links, every action a button in
 * a form: it is driven from the keyboard as well as the mouse.
 */
import { type OperatorRole, roleAllows } from '@e-wallet/contract';
import { useCallback, useEffect, useState } from 'react';
import { Audit } from './Audit.tsx';
import { api, session } from './api.ts';
import { Identifications } from './Identifications.tsx';
import { type TextKey, useLanguage, useT } from './i18n.tsx';
import { Operators } from './Operators.tsx';
import { Payouts } from './Payouts.tsx';
import { Reconciliation } from './Reconciliation.tsx';
import { Refunds } from './Refunds.tsx';
import { SignIn } from './SignIn.tsx';
import { UserCard, UserSearch } from './Users.tsx';
import { Link, navigate, usePath } from './ui.tsx';

interface Me {
  id: string;
  email: string;
  role: OperatorRole;
}

const NAV: Array<{ path: string; label: TextKey; permission: Parameters<typeof roleAllows>[1] }> = [
  { path: '/users', label: 'navUsers', permission: 'read' },
  { path: '/identifications', label: 'navIdentifications', permission: 'read' },
  { path: '/refunds', label: 'navRefunds', permission: 'read' },
  { path: '/payouts', label: 'navPayouts', permission: 'read' },
  { path: '/audit', label: 'navAudit', permission: 'read' },
  { path: '/reconciliation', label: 'navReconciliation', permission: 'reconcile' },
  { path: '/operators', label: 'navOperators', permission: 'operators' },
];

export function App() {
  const t = useT();
  const { language, setLanguage } = useLanguage();
  const path = usePath();
  const [me, setMe] = useState<Me | null>(null);
  const [checked, setChecked] = useState(false);

  const loadMe = useCallback(() => {
    if (!session.token()) {
      setMe(null);
      setChecked(true);
      return;
    }
    api<Me>('GET', '/ops/v1/me')
      .then(setMe, () => setMe(null))
      .finally(() => setChecked(true));
  }, []);
  useEffect(() => {
    loadMe();
    const signedOut = () => setMe(null);
    window.addEventListener('backoffice:signed-out', signedOut);
    return () => window.removeEventListener('backoffice:signed-out', signedOut);
  }, [loadMe]);

  const languageButton = (
    <button
      type="button"
      className="link"
      lang={language === 'ru' ? 'en' : 'ru'}
      aria-label={t('languageLabel')}
      onClick={() => setLanguage(language === 'ru' ? 'en' : 'ru')}
    >
      {t('language')}
    </button>
  );

  if (!checked) return null;
  if (!me)
    return (
      <>
        <header className="top">
          <span className="brand">{t('appName')}</span>
          {languageButton}
        </header>
        <SignIn
          onSignedIn={() => {
            loadMe();
            if (!path.startsWith('/') || path === '/' || path.startsWith('/signin')) navigate('/users');
          }}
        />
      </>
    );

  const [pathname = '/', query = ''] = path.split('?');
  const search = new URLSearchParams(query);
  let screen: React.ReactNode;
  const userMatch = /^\/users\/([0-9a-f-]{36})$/i.exec(pathname);
  if (userMatch) screen = <UserCard key={userMatch[1]} id={userMatch[1]!} role={me.role} />;
  else if (pathname === '/identifications') screen = <Identifications role={me.role} />;
  else if (pathname === '/refunds') screen = <Refunds key={query} role={me.role} search={search} />;
  else if (pathname === '/payouts') screen = <Payouts role={me.role} />;
  else if (pathname === '/audit') screen = <Audit key={query} search={search} />;
  else if (pathname === '/reconciliation' && roleAllows(me.role, 'reconcile'))
    screen = <Reconciliation key={query} search={search} />;
  else if (pathname === '/operators' && roleAllows(me.role, 'operators')) screen = <Operators />;
  else screen = <UserSearch key={query} query={search.get('query') ?? ''} />;

  return (
    <>
      <a className="skip" href="#main">
        {t('skip')}
      </a>
      <header className="top">
        <span className="brand">{t('appName')}</span>
        <nav aria-label={t('appName')}>
          <ul>
            {NAV.filter((item) => roleAllows(me.role, item.permission)).map((item) => (
              <li key={item.path}>
                <Link to={item.path} current={pathname.startsWith(item.path)}>
                  {t(item.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who" data-testid="operator">
          {me.email} · {me.role}
        </span>
        {languageButton}
        <button
          type="button"
          className="link"
          onClick={async () => {
            await api('POST', '/ops/v1/auth/logout').catch(() => {});
            session.clear();
            setMe(null);
          }}
        >
          {t('signOut')}
        </button>
      </header>
      {screen}
    </>
  );
}
