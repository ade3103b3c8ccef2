/**
 * The signed-in area (spec 'Home layout'). For now a shell: the header and the page. The route
 * guard lives here: without an auth token the home layout redirects to AuthIn (spec section 2).
 * Next: navigation, notifications and the profile panel go beside <HomeHeader> and the page.
 */
import './home-layout.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { queryClient } from '../../shared/api/query-client.ts';
import { useSessionStore } from '../../shared/store/session-store.ts';
import { ErrorBoundary } from '../error-boundary.tsx';
import { PageSpinner } from '../page-spinner.tsx';
import { HomeHeader } from './home-header.tsx';

export function HomeLayout() {
  const token = useSessionStore((state) => state.authToken);
  const { pathname } = useLocation();
  if (!token) return <Navigate to="/auth" replace />;
  return (
    <QueryClientProvider client={queryClient}>
      <div className="home-layout">
        <HomeHeader />
        <div className="home-layout__body">
          <main className="home-layout__content">
            <ErrorBoundary key={pathname}>
              <Suspense fallback={<PageSpinner />}>
                <Outlet />
              </Suspense>
            </ErrorBoundary>
          </main>
        </div>
      </div>
    </QueryClientProvider>
  );
}

export default HomeLayout;
