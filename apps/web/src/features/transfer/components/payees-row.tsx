/**
 * The transfer screen's row of avatars: recent recipients, then templates; pressing one fills the
 * phone (and a template's amount). A template is a card (name, recipient, amount) with its own
 * delete button.
 */
import './payees-row.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../shared/format/money.ts';
import { formatPhone, initialOf } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { CloseIcon } from '../../../shared/ui/icons.tsx';
import { deleteTemplate, recentQuery, templatesQuery } from '../api/payees.ts';

export interface PayeeChoice {
  phone: string;
  amount: string | null;
  /** An СБП payee's bank (docs/decisions/sbp.md#saved-payees-and-repeat): the СБП form is filled instead. */
  bank?: { id: string; name: string } | null;
}

export function PayeesRow({ onChoose }: { onChoose: (choice: PayeeChoice) => void }) {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
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
                >
                  <span className="avatars-row__avatar" aria-hidden="true">
                    {initialOf(named(person.name))}
                  </span>
                  <span className="avatars-row__name">{named(person.name)}</span>
                  <span className="visually-hidden">, {formatPhone(person.phone)}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {saved.length > 0 && (
        <>
          <h3 className="field__label">{t('templates.title')}</h3>
          {/* A template is a card with its name, recipient and amount, unlike a recent recipient's avatar. */}
          <ul className="template-cards" data-testid="templates">
            {saved.map((template) => (
              <li key={template.id} className="template-card">
                <button
                  type="button"
                  className="template-card__use"
                  onClick={() =>
                    onChoose({ phone: template.phone, amount: template.amount, bank: template.bank })
                  }
                >
                  <span className="template-card__name">{template.name}</span>
                  <span className="template-card__details">
                    {template.bank
                      ? t('templates.sbpDetails', { bank: template.bank.name })
                      : named(template.recipient)}
                    {' · '}
                    {template.amount
                      ? formatMoney(template.amount, template.currency_code, language)
                      : t('templates.noAmount')}
                  </span>
                  <span className="visually-hidden">, {formatPhone(template.phone)}</span>
                </button>
                <button
                  type="button"
                  className="template-card__delete"
                  aria-label={t('templates.delete', { name: template.name })}
                  onClick={async () => {
                    await deleteTemplate(template.id).catch(() => undefined);
                    await queryClient.invalidateQueries({ queryKey: ['templates'] });
                  }}
                >
                  <CloseIcon />
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
