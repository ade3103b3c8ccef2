/**
 * The landing (AuthIn): image, title, Register button, 'already have an account' with a login link,
 * and the e-money operator's identity and licence (docs/decisions/account.md#a-persons-account). Right after
 * the wallet is closed, the closed wallet's page instead.
 */
import '../auth.css';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '../../../shared/routes.ts';
import { closedWallet, forgetClosedWallet } from '../../../shared/session/closed-wallet.ts';
import { OperatorFacts } from '../../../shared/terms/operator-facts.tsx';
import landingImageUrl from '../assets/landing.svg';

// Loaded only right after a closing: its date formatting (date-fns' locales) stays out of the
// sign-in pages' first script, which has a budget (docs/performance.md#initial-javascript-budgets).
const ClosedWalletPage = lazy(async () => ({
  default: (await import('../components/closed-wallet-page.tsx')).ClosedWalletPage,
}));

export function AuthInPage() {
  const { t } = useTranslation();
  // Closing the wallet signs out onto this page: it says first where the money went.
  const [closed, setClosed] = useState(closedWallet);
  if (closed)
    return (
      <Suspense fallback={null}>
        <ClosedWalletPage
          closed={closed}
          onDone={() => {
            forgetClosedWallet();
            setClosed(null);
          }}
        />
      </Suspense>
    );
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
