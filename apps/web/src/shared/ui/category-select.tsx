/**
 * A labelled select over the person's categories (the fixed list, then their own names), with a first
 * option for none of them: History's filter and a budget's category.
 */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { categoriesQuery } from '../api/categories.ts';

export function CategorySelect({
  label,
  anyLabel,
  value,
  onChange,
}: {
  label: string;
  /** The first option's text (its value is ''): every category. */
  anyLabel: string;
  value: string;
  onChange(value: string): void;
}) {
  const categories = useQuery(categoriesQuery());
  const id = useId();
  return (
    <>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{anyLabel}</option>
        {(categories.data?.results ?? []).map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
    </>
  );
}
