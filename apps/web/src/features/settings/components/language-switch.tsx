/**
 * The language of the app: Russian (the default, docs/product.md#business-constants-and-limits) or English.
 * The choice is kept by the shared i18n (`setLanguage`) and also sets the language the server answers
 * messages in; this browser's push subscription is handed over again so pushes follow the choice.
 */
import { useTranslation } from 'react-i18next';
import { currentLanguage, LANGUAGES, type Language, setLanguage } from '../../../shared/i18n/i18n.ts';
import { resendSubscription } from '../api/alerts.ts';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <section className="panel settings-panel" aria-labelledby="settings-language-title">
      <h2 id="settings-language-title" className="panel__title">
        {t('settings.language.title')}
      </h2>
      <p className="settings-panel__hint">{t('settings.language.hint')}</p>
      <fieldset className="segmented" aria-labelledby="settings-language-title">
        {LANGUAGES.map((option: Language) => (
          <label key={option} className="segmented__option" lang={option}>
            <input
              type="radio"
              name="language"
              value={option}
              checked={language === option}
              onChange={() => void setLanguage(option).then(resendSubscription)}
            />
            <span>{t(`settings.language.${option}`)}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
