/**
 * The policy block of the profile panel (docs/product.md 'Profile panel', 'Policy block'), shown
 * only for brands whose configuration has a `policy` section (apps/web/brands/grok.json): the
 * AML & KYC, cookies, privacy and terms-of-use PDFs opening in a new tab, the operating company
 * with its registration number, and the regions the service is not offered in. The texts,
 * company and regions come from the brand's configuration; only the headings are app texts.
 */
import './policy-block.css';
import { brand } from 'virtual:brand';
import { useTranslation } from 'react-i18next';

/** Whether this build's brand shows the policy block (src/app/home-layout passes it to the panel). */
export const hasPolicyBlock = brand.policy !== undefined;

function DocumentIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M7 3h7l5 5v11a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2Z M14 3v5h5 M8.5 13h7 M8.5 16.5h5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function PolicyBlock() {
  const { t, i18n } = useTranslation();
  const policy = brand.policy;
  if (!policy) return null;
  const language = i18n.language === 'en' ? 'en' : 'ru';
  const { company } = policy;
  return (
    <div className="policy-block" data-testid="policy-block">
      <h3 className="profile-panel__section-title" id="policy-documents-title">
        {t('policy.documents')}
      </h3>
      <ul className="policy-block__documents" aria-labelledby="policy-documents-title">
        {policy.documents.map((document) => (
          <li key={document.id}>
            <a
              className="policy-block__document"
              href={document.href[language]}
              target="_blank"
              rel="noopener"
              type="application/pdf"
              hrefLang={language}
              data-document={document.id}
            >
              <DocumentIcon />
              <span>{document.title[language]}</span>
              <span className="policy-block__pdf" aria-hidden="true">
                PDF
              </span>
              <span className="visually-hidden">{t('policy.newTab')}</span>
            </a>
          </li>
        ))}
      </ul>
      <p className="policy-block__company" data-testid="policy-company">
        {t('policy.operator', {
          company: company.name[language],
          label: company.registrationLabel[language],
          number: company.registrationNumber,
        })}
      </p>
      <h3 className="profile-panel__section-title" id="policy-regions-title">
        {t('policy.restricted')}
      </h3>
      <ul
        className="policy-block__regions"
        aria-labelledby="policy-regions-title"
        data-testid="policy-regions"
      >
        {policy.restrictedRegions.map((region) => (
          <li key={region.en}>{region[language]}</li>
        ))}
      </ul>
    </div>
  );
}
