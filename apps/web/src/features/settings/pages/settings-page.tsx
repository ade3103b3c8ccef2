/**
 * Settings (docs/product.md section 2, 'Settings / identification section'): profile, identification section,
 * language, active sessions and PIN change. Each panel is its own area: one that fails to render
 * shows a retry and leaves the others usable.
 */
import '../settings.css';
import { useTranslation } from 'react-i18next';
import { IdentificationSection } from '../../../shared/identification/identification-section.tsx';
import { SecurityPanel } from '../../../shared/security/security-panel.tsx';
import { AreaBoundary } from '../../../shared/ui/area.tsx';
import { LanguageSwitch } from '../components/language-switch.tsx';
import { PinChangePanel } from '../components/pin-change-panel.tsx';
import { ProfileFacts } from '../components/profile-facts.tsx';
import { SessionsPanel } from '../components/sessions-panel.tsx';

export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <div className="home-page money-page settings-page">
      <h1 className="home-page__title">{t('settings.title')}</h1>
      <div className="settings-grid">
        <div className="settings-column">
          <AreaBoundary>
            <ProfileFacts />
          </AreaBoundary>
          <section className="panel settings-panel" data-testid="settings-identification">
            <AreaBoundary>
              <IdentificationSection headingLevel={2} />
            </AreaBoundary>
          </section>
          <AreaBoundary>
            <LanguageSwitch />
          </AreaBoundary>
        </div>
        <div className="settings-column">
          <AreaBoundary>
            <SessionsPanel />
          </AreaBoundary>
          <AreaBoundary>
            <SecurityPanel />
          </AreaBoundary>
          <AreaBoundary>
            <PinChangePanel />
          </AreaBoundary>
        </div>
      </div>
    </div>
  );
}

export default SettingsPage;
