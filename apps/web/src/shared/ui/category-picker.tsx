/**
 * The category of one outgoing operation
 * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): shown on its history row as a
 * small select; choosing another sets it (and the wallet remembers it for the payee). 'Своя…' asks for a name
 * of one's own.
 */
import './categories.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/api-error.ts';
import { categoriesQuery, createCategory, setCategory } from '../api/categories.ts';

const OWN = '__own__';

export function CategoryPicker({
  transferId,
  category,
  description,
}: {
  transferId: string;
  category: { id: string; name: string };
  /** The operation, for the select's accessible name. */
  description: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const categories = useQuery(categoriesQuery());
  const selectId = useId();
  const [asking, setAsking] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function choose(next: string) {
    if (next === OWN) {
      setAsking(true);
      return;
    }
    if (next === category.id) return;
    setBusy(true);
    setProblem(null);
    try {
      await setCategory(queryClient, transferId, next);
    } catch (error) {
      setProblem(error instanceof ApiError && error.answer ? error.answer.message : t('common.networkError'));
    } finally {
      setBusy(false);
    }
  }

  async function saveOwn(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    try {
      const made = await createCategory(queryClient, name.trim());
      await setCategory(queryClient, transferId, made.id);
      setAsking(false);
      setName('');
    } catch (error) {
      setProblem(error instanceof ApiError && error.answer ? error.answer.message : t('common.networkError'));
    } finally {
      setBusy(false);
    }
  }

  const listed = categories.data?.results ?? [category];
  return (
    <span className="category-picker">
      <label className="visually-hidden" htmlFor={selectId}>
        {t('categories.of', { description })}
      </label>
      <select
        id={selectId}
        className="category-picker__select"
        value={category.id}
        disabled={busy}
        aria-busy={busy || undefined}
        onChange={(event) => void choose(event.target.value)}
        data-testid="category-select"
      >
        {listed.some((item) => item.id === category.id) ? null : (
          <option value={category.id}>{category.name}</option>
        )}
        {listed.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
        <option value={OWN}>{t('categories.own')}</option>
      </select>
      {asking && (
        <form className="category-picker__own" onSubmit={saveOwn}>
          <input
            className="field__input category-picker__name"
            aria-label={t('categories.ownName')}
            placeholder={t('categories.ownName')}
            maxLength={40}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="row-action" disabled={busy || !name.trim()}>
            {t('categories.save')}
          </button>
          <button type="button" className="row-action" onClick={() => setAsking(false)}>
            {t('common.cancel')}
          </button>
        </form>
      )}
      {problem && (
        <span className="field__error" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}
