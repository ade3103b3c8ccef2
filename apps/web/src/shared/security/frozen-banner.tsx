/** The frozen state across the signed-in area: a banner above every page while `is_frozen`. */

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthInfo } from '../api/auth-info.ts';
import { pathTo } from '../routes.ts';
import { LockIcon } from '../ui/icons.tsx';

export function FrozenBanner({ onSettings = false }: { onSettings?: boolean }) {
  const { t } = useTranslation();
  const info = useAuthInfo();
  if (!info.data?.is_frozen) return null;
  return (
    <div className="frozen-banner" role="status" data-testid="frozen-banner">
      <span className="frozen-banner__icon">
        <LockIcon />
      </span>
      <span className="frozen-banner__text">
        <strong>{t('security.frozenTitle')}</strong>
        <span>{t('security.frozenText')}</span>
      </span>
      {!onSettings && (
        <Link className="frozen-banner__link" to={`${pathTo('Settings')}#security`}>
          {t('security.frozenSettings')}
        </Link>
      )}
    </div>
  );
}
