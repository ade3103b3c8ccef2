import { Suspense, useEffect } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { setSignedOutNavigation } from '../shared/session/sign-out.ts';
import { ErrorBoundary } from './error-boundary.tsx';
import { PageSpinner } from './page-spinner.tsx';
import { AppRoutes } from './routes.tsx';

/** INVALID_TOKEN anywhere (shared/api/client.ts) and sign-out end here: the landing, without a reload. */
function SignedOutNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    setSignedOutNavigation(() => {
      void navigate('/auth', { replace: true });
    });
  }, [navigate]);
  return null;
}

export function App() {
  return (
    <BrowserRouter>
      <SignedOutNavigation />
      <ErrorBoundary>
        <Suspense fallback={<PageSpinner />}>
          <AppRoutes />
        </Suspense>
      </ErrorBoundary>
    </BrowserRouter>
  );
}
