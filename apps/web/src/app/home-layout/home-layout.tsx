/**
 * The signed-in area (docs/product.md 'Home layout'): the header with navigation and notifications,
 * the page on the left and the profile panel on the right (below the page on a phone). The route
 * guard lives here: without an auth token the home layout redirects to AuthIn
 * (docs/product.md#screens-and-routes).
 * Navigating closes the notifications, which also lifts their scroll lock.
 */
import './home-layout.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';

import { documentSlots } from '../../features/documents/document-slots.ts';
import { hasPolicyBlock, PolicyBlock } from '../../features/policy/policy-block.tsx';
import { ProfilePanel } from '../../features/profile/components/profile-panel.tsx';
import { queryClient } from '../../shared/api/query-client.ts';
import { DocumentSlotsProvider } from '../../shared/documents/document-slots.tsx';
import { IdentificationSection } from '../../shared/identification/identification-section.tsx';
import '../../shared/i18n/signed-in-texts.ts';
import { useLiveWallet } from '../../shared/live/use-live-wallet.ts';
import { pathTo } from '../../shared/routes.ts';
import '../../shared/security/security.css';
import { FrozenBanner } from '../../shared/security/frozen-banner.tsx';
import { FreezeButton } from '../../shared/security/security-buttons.tsx';
import { AppLock } from '../../shared/session/app-lock/app-lock.tsx';
import { useLogout } from '../../shared/session/logout.ts';
import { keepReturnPath } from '../../shared/session/return-after-sign-in.ts';
import { useSessionStore } from '../../shared/store/session-store.ts';
import { TermsDialog } from '../../shared/terms/terms-dialog.tsx';
import { ErrorBoundary } from '../error-boundary.tsx';
import { PageSpinner } from '../page-spinner.tsx';
import { LayoutHeader } from './layout-header.tsx';

const PROFILE_ID = 'profile-panel';

export function HomeLayout() {
  const token = useSessionStore((state) => state.authToken);
  const { pathname } = useLocation();
  if (!token) {
    keepReturnPath(pathname);
    return <Navigate to="/auth" replace />;
  }
  return (
    <QueryClientProvider client={queryClient}>
      <DocumentSlotsProvider value={documentSlots}>
        <SignedInArea />
      </DocumentSlotsProvider>
    </QueryClientProvider>
  );
}

function SignedInArea() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const logout = useLogout();
  const [notificationsOpen, setNotificationsOpen] = useState(false);
  // Balances, history and the bell follow the server's events
  // (docs/decisions/live-wallet.md#the-live-wallet).
  useLiveWallet();
  // On a phone the profile panel shows only when asked for, not under every page.
  const [profileOpen, setProfileOpen] = useState(false);
  // Settings has its own profile and identification: the side panel would repeat them.
  const onSettings = pathname === pathTo('Settings');

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the point of a new path
  useEffect(() => {
    setNotificationsOpen(false);
    setProfileOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!profileOpen) return;
    // The opened panel stands above the page: show the top, where it is, and give it the focus.
    window.scrollTo({ top: 0 });
    document.getElementById(PROFILE_ID)?.focus({ preventScroll: true });
  }, [profileOpen]);

  const showProfile = () => {
    if (onSettings) return;
    setProfileOpen((open) => !open);
  };

  return (
    <div className="home-layout">
      <a className="skip-link" href="#main-content">
        {t('nav.skip')}
      </a>
      <LayoutHeader
        notificationsOpen={notificationsOpen}
        onNotificationsOpenChange={setNotificationsOpen}
        onShowProfile={showProfile}
        profileId={PROFILE_ID}
        profileOpen={profileOpen}
        profileAvailable={!onSettings}
      />
      <div className={clsx('home-layout__body', onSettings && 'home-layout__body--wide')}>
        <main id="main-content" className="home-layout__content" tabIndex={-1}>
          <FrozenBanner onSettings={onSettings} />
          <ErrorBoundary key={pathname}>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </main>
        {!onSettings && (
          <div className={clsx('home-layout__side', profileOpen && 'home-layout__side--open')}>
            <ProfilePanel
              id={PROFILE_ID}
              onLogout={() => logout.mutate()}
              loggingOut={logout.isPending}
              identification={<IdentificationSection />}
              security={<FreezeButton block />}
              policy={hasPolicyBlock ? <PolicyBlock /> : null}
            />
          </div>
        )}
      </div>
      <AppLock onSignOut={() => logout.mutate()} signingOut={logout.isPending} />
      <TermsDialog />
    </div>
  );
}

export default HomeLayout;
