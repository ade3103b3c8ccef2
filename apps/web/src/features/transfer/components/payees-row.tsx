/**
 * The transfer screen's row of avatars: recent recipients, then templates; pressing one fills the
 * phone (and a template's amount). A template can be deleted from its own small button.
 */
import '../../../shared/requests/requests.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatPhone, initialOf } from '../../../shared/format/person.ts';
import { deleteTemplate, recentQuery, templatesQuery } from '../api/payees.ts';

export interface PayeeChoice {
  phone: string;
  amount: string | null;
}

export function PayeesRow({ onChoose }: { onChoose: (choice: PayeeChoice) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const recent = useQuery(recentQuery());
  const templates = useQuery(templatesQuery());
  const recents = recent.data?.results ?? [];
  const saved = templates.data?.results ?? [];
  if (recents.length === 0 && saved.length === 0) return null;
  return (
    <div className="payees">
      {recents.length > 0 && (
        <>
          <h3 className="field__label">{t('templates.recent')}</h3>
          <ul className="avatars-row" data-testid="recent-recipients">
            {recents.map((person) => (
              <li key={person.phone}>
                <button
                  type="button"
                  className="avatars-row__button"
                  onClick={() => onChoose({ phone: person.phone, amount: null })}
                  aria-label={`${person.name}, ${formatPhone(person.phone)}`}
                >
                  <span className="avatars-row__avatar" aria-hidden="true">
                    {initialOf(person.name)}
                  </span>
                  <span className="avatars-row__name">{person.name}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {saved.length > 0 && (
        <>
          <h3 className="field__label">{t('templates.title')}</h3>
          <ul className="avatars-row" data-testid="templates">
            {saved.map((template) => (
              <li key={template.id}>
                <button
                  type="button"
                  className="avatars-row__button"
                  onClick={() => onChoose({ phone: template.phone, amount: template.amount })}
                  aria-label={t('templates.use', { name: template.name, phone: formatPhone(template.phone) })}
                >
                  <span className="avatars-row__avatar" aria-hidden="true">
                    {initialOf(template.name)}
                  </span>
                  <span className="avatars-row__name">{template.name}</span>
                </button>
                <button
                  type="button"
                  className="button button--link"
                  aria-label={t('templates.delete', { name: template.name })}
                  onClick={async () => {
                    await deleteTemplate(template.id).catch(() => undefined);
                    await queryClient.invalidateQueries({ queryKey: ['templates'] });
                  }}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
