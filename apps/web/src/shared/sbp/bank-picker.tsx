/**
 * The СБП bank picker (docs/decisions/sbp.md#participants): a search by name over the participants, each
 * shown with its initials; the person's recent banks come first, as the server orders them.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaError, AreaLoading } from '../ui/area.tsx';
import { type SbpBank, sbpBanksQuery } from './sbp-api.ts';

/** 'Т-Банк' -> 'ТБ', 'Сбербанк' -> 'С': what stands in for a logo. */
export function bankInitials(name: string): string {
  const words = name
    .replace(/[«»"()]/g, ' ')
    .split(/[\s-]+/)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('');
}

const SHOWN = 8;

/** The first banks found, and the chosen one too (a saved payee's bank may be further down the list). */
function shownBanks(found: SbpBank[], count: number, chosen: SbpBank | null): SbpBank[] {
  const first = found.slice(0, count);
  return chosen && !first.some((bank) => bank.id === chosen.id) && found.some((bank) => bank.id === chosen.id)
    ? [chosen, ...first.slice(0, count - 1)]
    : first;
}

export function BankPicker({
  value,
  onChange,
}: {
  value: SbpBank | null;
  onChange: (bank: SbpBank) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const banks = useQuery(sbpBanksQuery());
  const [search, setSearch] = useState('');
  if (banks.isPending) return <AreaLoading rows={2} />;
  if (banks.isError) return <AreaError onRetry={() => banks.refetch()} />;
  const needle = search.trim().toLocaleLowerCase();
  const found = banks.data.results.filter((bank) => bank.name.toLocaleLowerCase().includes(needle));
  return (
    <fieldset className="sbp-banks">
      <legend className="field__label">{t('sbp.bank')}</legend>
      <input
        id={`${id}-search`}
        className="field__input"
        type="search"
        value={search}
        placeholder={t('sbp.bankSearch')}
        aria-label={t('sbp.bankSearch')}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div className="sbp-banks__list">
        {shownBanks(found, needle ? found.length : SHOWN, value).map((bank) => (
          <button
            key={bank.id}
            type="button"
            className="sbp-banks__bank"
            aria-pressed={value?.id === bank.id}
            onClick={() => onChange(bank)}
          >
            <span className="sbp-banks__initials" aria-hidden="true">
              {bankInitials(bank.name)}
            </span>
            <span className="sbp-banks__name">{bank.name}</span>
          </button>
        ))}
        {found.length === 0 && <p className="area-state area-state--empty">{t('sbp.noBank')}</p>}
      </div>
    </fieldset>
  );
}
