/**
 * Operations on hold (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): my held operations with
 * their reason and 'Подтвердить' / 'Отменить', and what I am asked to approve as someone's trusted person.
 * The pay modal's held stage leads here (`?id=` marks the operation just held).
 */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AreaBoundary } from '../../../shared/ui/area.tsx';
import { ApprovalsPanel, HoldsPanel } from '../components/holds-panels.tsx';

export function HoldsPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <div className="home-page money-page holds-page">
      <h1 className="home-page__title">{t('holds.title')}</h1>
      <AreaBoundary>
        <HoldsPanel focusId={params.get('id')} />
      </AreaBoundary>
      <AreaBoundary>
        <ApprovalsPanel hideWhenEmpty />
      </AreaBoundary>
    </div>
  );
}

export default HoldsPage;
