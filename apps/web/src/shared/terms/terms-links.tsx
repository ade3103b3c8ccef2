/** The current terms, tariffs and memo as links that open in a new tab (registration, the new-version dialog). */
import './terms.css';
import { useTranslation } from 'react-i18next';
import type { Terms } from './terms-api.ts';

export function TermsLinks({ terms }: { terms: Terms }) {
  const { t } = useTranslation();
  return (
    <ul className="terms-links">
      {terms.documents.map((document) => (
        <li key={document.kind}>
          <a href={document.url} target="_blank" rel="noopener" data-testid={`terms-${document.kind}`}>
            {document.title}
            <span className="visually-hidden"> {t('account.terms.newTab')}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
