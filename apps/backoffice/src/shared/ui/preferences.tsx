/** The language and the appearance (light, dark, as the system), on every screen, signed in or not. */
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../i18n/i18n.ts';
import { THEMES, type Theme, useTheme } from '../theme/theme.ts';

export function Preferences() {
  const { t, i18n } = useTranslation();
  const [theme, setTheme] = useTheme();
  const other = i18n.language === 'en' ? 'ru' : 'en';
  return (
    <div className="preferences">
      <label className="theme">
        <span className="sr-only">{t('theme.label')}</span>
        <select
          aria-label={t('theme.label')}
          value={theme}
          onChange={(event) => setTheme(event.target.value as Theme)}
        >
          {THEMES.map((value) => (
            <option key={value} value={value}>
              {t(`theme.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="link"
        lang={other}
        aria-label={t('app.languageLabel')}
        onClick={() => void setLanguage(other)}
      >
        {t('app.language')}
      </button>
    </div>
  );
}
