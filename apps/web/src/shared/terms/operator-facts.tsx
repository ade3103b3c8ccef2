/**
 * Who issues the e-money: the operator's legal name, its Bank of Russia licence and a link to the
 * register entry (docs/decisions/account.md#a-persons-account), on the landing page and in the profile panel.
 */
import './terms.css';
import { useTranslation } from 'react-i18next';
import { useTerms } from './terms-api.ts';

export function OperatorFacts({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { terms } = useTerms();
  if (!terms) return null;
  const { operator } = terms;
  return (
    <section
      className={`operator-facts ${className ?? ''}`}
      aria-label={t('account.operator.title')}
      data-testid="operator-facts"
    >
      <p className="operator-facts__name">{operator.name}</p>
      <p>{t('account.operator.licence', { licence: operator.licence })}</p>
      <p>
        <a href={operator.register_url} target="_blank" rel="noopener noreferrer">
          {t('account.operator.register')}
          <span className="visually-hidden"> {t('account.terms.newTab')}</span>
        </a>
      </p>
    </section>
  );
}
