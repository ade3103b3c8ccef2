import { useTranslation } from 'react-i18next';
import type { User } from '../../shared/api/people.ts';
import { Badge } from '../../shared/ui/ui.tsx';

export function FrozenBadge({ user }: { user: Pick<User, 'frozen_by'> }) {
  const { t } = useTranslation();
  if (user.frozen_by === 'self') return <Badge tone="warn">{t('users.frozenSelf')}</Badge>;
  if (user.frozen_by === 'operator') return <Badge tone="danger">{t('users.frozenOperator')}</Badge>;
  return <Badge tone="ok">{t('users.active')}</Badge>;
}
