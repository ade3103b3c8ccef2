/**
 * Settings (docs/product.md#screens-and-routes, 'Settings / identification section'): profile, identification
 * section, language, theme, active sessions, notifications, PIN change, one's own data and sign-out
 * (docs/decisions/account.md#a-persons-account). Each panel is its own area: one that fails to render
 * shows a retry and leaves the others usable.
 */
import '../settings.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DocumentsForm } from '../../../shared/identification/documents-form.tsx';
import { IdentificationSection } from '../../../shared/identification/identification-section.tsx';
import { SecurityPanel } from '../../../shared/security/security-panel.tsx';
import { AreaBoundary } from '../../../shared/ui/area.tsx';
import { AlertsPanel } from '../components/alerts-panel.tsx';
import { BusinessPanel } from '../components/business-panel.tsx';
import { CloseWalletPanel } from '../components/close-wallet-panel.tsx';
import { LanguageSwitch } from '../components/language-switch.tsx';
import { MyDataPanel } from '../components/my-data-panel.tsx';
import { PasskeysPanel } from '../components/passkeys-panel.tsx';
import { PinChangePanel } from '../components/pin-change-panel.tsx';
import { ProfileFacts } from '../components/profile-facts.tsx';
import { RecoveryReview } from '../components/recovery-review.tsx';
import { SessionsPanel } from '../components/sessions-panel.tsx';
import { SignOutPanel } from '../components/sign-out-panel.tsx';
import { SupportPanel } from '../components/support-panel.tsx';
import { ThemeSwitch } from '../components/theme-switch.tsx';
import { TrustedPersonPanel } from '../components/trusted-person-panel.tsx';

/** The application id of a verification whose documents the person is asked for (`?documents=`). */
const APPLICATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function SettingsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const documents = params.get('documents');
  const asked = documents && APPLICATION_ID.test(documents) ? documents : null;
  const [sent, setSent] = useState(false);
  return (
    <div className="home-page money-page settings-page">
      <h1 className="home-page__title">{t('settings.title')}</h1>
      <div className="settings-grid">
        <div className="settings-column">
          <AreaBoundary>
            <ProfileFacts />
          </AreaBoundary>
          {asked && (
            <section className="panel settings-panel" data-testid="identification-documents">
              <AreaBoundary>
                <DocumentsForm
                  applicationId={asked}
                  onSent={() => {
                    setSent(true);
                    setParams({}, { replace: true });
                  }}
                />
              </AreaBoundary>
            </section>
          )}
          <section className="panel settings-panel" data-testid="settings-identification">
            {sent && (
              <p className="identification__hint" role="status">
                {t('identification.documents.sent')}
              </p>
            )}
            <AreaBoundary>
              <IdentificationSection headingLevel={2} />
            </AreaBoundary>
          </section>
          <AreaBoundary>
            <LanguageSwitch />
          </AreaBoundary>
          <AreaBoundary>
            <ThemeSwitch />
          </AreaBoundary>
          <AreaBoundary>
            <MyDataPanel />
          </AreaBoundary>
          <SupportPanel />
          <BusinessPanel />
        </div>
        <div className="settings-column">
          <AreaBoundary>
            <SessionsPanel />
          </AreaBoundary>
          <AreaBoundary>
            <SecurityPanel />
          </AreaBoundary>
          <AreaBoundary>
            <RecoveryReview />
          </AreaBoundary>
          <AreaBoundary>
            <AlertsPanel />
          </AreaBoundary>
          <AreaBoundary>
            <PinChangePanel />
          </AreaBoundary>
          <AreaBoundary>
            <PasskeysPanel />
          </AreaBoundary>
          <AreaBoundary>
            <TrustedPersonPanel />
          </AreaBoundary>
          <AreaBoundary>
            <CloseWalletPanel />
          </AreaBoundary>
          <SignOutPanel />
        </div>
      </div>
    </div>
  );
}

export default SettingsPage;
