/** How long a person has waited for an answer, in words ('12 мин', '2 ч 5 мин'); answered: a tick. */
import { useTranslation } from 'react-i18next';
import { Badge } from '../../shared/ui/ui.tsx';

export function WaitTime({ seconds }: { seconds: number | null }) {
  const { t } = useTranslation();
  if (seconds === null) return <Badge tone="ok">{t('support.answered')}</Badge>;
  const minutes = Math.floor(seconds / 60);
  const text =
    minutes >= 60
      ? t('support.waitHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })
      : t('support.waitMinutes', { minutes });
  return <Badge tone={minutes >= 15 ? 'danger' : 'warn'}>{text}</Badge>;
}
