/** The recipient found by phone: the initial, the masked name ('Иван П.') and the phone. */
import { useTranslation } from 'react-i18next';
import { formatPhone, initialOf } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';

export function RecipientCard({ name: stored, phone }: { name: string; phone: string }) {
  const { t } = useTranslation();
  const name = useName()(stored);
  return (
    <div className="recipient-card" data-testid="recipient-card">
      <span className="recipient-card__avatar" aria-hidden="true">
        {initialOf(name)}
      </span>
      <span className="recipient-card__text">
        <span className="recipient-card__label">{t('transferPage.found')}</span>
        <span className="recipient-card__name">{name}</span>
        <span className="recipient-card__phone">{formatPhone(phone)}</span>
      </span>
    </div>
  );
}
