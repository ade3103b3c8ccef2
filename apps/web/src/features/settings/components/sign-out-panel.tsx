/** 'Выйти' on Settings, where a person looks for it (the side profile panel is hidden here). */
import { useTranslation } from 'react-i18next';
import { useLogout } from '../../../shared/session/logout.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { LogoutIcon } from '../../../shared/ui/icons.tsx';

export function SignOutPanel() {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <section className="panel settings-panel settings-sign-out" aria-label={t('account.signOut')}>
      <Button
        variant="ghost"
        block
        className="settings-sign-out__button"
        onClick={() => logout.mutate()}
        busy={logout.isPending}
        data-testid="settings-sign-out"
      >
        <LogoutIcon />
        {t('account.signOut')}
      </Button>
    </section>
  );
}
