import { useTranslation } from 'react-i18next';
import { Badge } from '../../shared/ui/ui.tsx';
import type { User } from './types.ts';

export function FrozenBadge({ user }: { user: Pick<User, 'frozen_by'> }) {
  const { t } = useTranslation();
  if (user.frozen_by === 'self') return <Badge tone="warn">{t('users.frozenSelf')}</Badge>;
  if (user.frozen_by === 'operator') return <Badge tone="danger">{t('users.frozenOperator')}</Badge>;
  return <Badge tone="ok">{t('users.active')}</Badge>;
}
