/**
 * Light, dark, or as the system is (docs/decisions/account.md#a-persons-account); the same segmented control
 * as the language.
 */
import { useTranslation } from 'react-i18next';
import { setTheme, THEMES, useTheme } from '../../../shared/theme/theme.ts';

export function ThemeSwitch() {
  const { t } = useTranslation();
  const theme = useTheme();
  return (
    <section className="panel settings-panel" aria-labelledby="settings-theme-title">
      <h2 id="settings-theme-title" className="panel__title">
        {t('account.theme.title')}
      </h2>
      <p className="settings-panel__hint">{t('account.theme.hint')}</p>
      <fieldset className="segmented segmented--three" aria-labelledby="settings-theme-title">
        {THEMES.map((option) => (
          <label key={option} className="segmented__option">
            <input
              type="radio"
              name="theme"
              value={option}
              checked={theme === option}
              onChange={() => setTheme(option)}
            />
            <span>{t(`account.theme.${option}`)}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
