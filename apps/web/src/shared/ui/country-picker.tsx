/**
 * The country chooser of the phone input: a modal dialog with a search box (case-insensitive
 * substring of the name) and the list of about 240 countries with flag, name and dial code.
 */
import './phone-field.css';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchCountries } from '../phone/countries.ts';
import type { Country } from '../phone/country.ts';
import { Flag } from './flag.tsx';
import { CheckIcon, CloseIcon, SearchIcon } from './icons.tsx';

export interface CountryPickerProps {
  open: boolean;
  selected: string;
  language: 'ru' | 'en';
  onSelect: (country: Country) => void;
  onClose: () => void;
}

export function CountryPicker({ open, selected, language, onSelect, onClose }: CountryPickerProps) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState('');
  const titleId = useId();
  const searchId = useId();
  const results = useMemo(() => searchCountries(query, language), [query, language]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setQuery('');
      element.showModal();
      // Start at the current country, typing goes to the search box.
      element.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: 'center' });
      element.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a backdrop click is a pointer shortcut; Escape and the close button serve the keyboard
    <dialog
      ref={dialog}
      className="country-picker"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog box itself, outside its panel) closes it.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="country-picker__panel">
        <div className="country-picker__head">
          <h2 id={titleId} className="country-picker__title">
            {t('phone.dialogTitle')}
          </h2>
          <button type="button" className="icon-button" onClick={onClose} aria-label={t('common.close')}>
            <CloseIcon />
          </button>
        </div>
        <label className="visually-hidden" htmlFor={searchId}>
          {t('phone.search')}
        </label>
        <div className="country-picker__search">
          <SearchIcon className="country-picker__search-icon" />
          <input
            id={searchId}
            type="search"
            className="field__input"
            placeholder={t('phone.searchPlaceholder')}
            value={query}
            autoComplete="off"
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && results[0]) {
                event.preventDefault();
                onSelect(results[0]);
              }
            }}
          />
        </div>
        <ul className="country-picker__list">
          {results.map((country) => (
            <li key={country.iso}>
              <button
                type="button"
                className="country-picker__option"
                aria-current={country.iso === selected ? 'true' : undefined}
                onClick={() => onSelect(country)}
              >
                <Flag country={country} />
                <span className="country-picker__name">{country.name}</span>
                <span className="country-picker__code">{country.code}</span>
                {country.iso === selected && <CheckIcon className="country-picker__check" />}
              </button>
            </li>
          ))}
        </ul>
        {results.length === 0 && <p className="country-picker__empty">{t('phone.noResults')}</p>}
      </div>
    </dialog>
  );
}

export default CountryPicker;
