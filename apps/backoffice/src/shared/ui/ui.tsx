/** The back office's shared pieces: a screen's title, errors, facts, badges and a paged table. */
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.ts';

/** The screen's heading, focused when the screen opens so keyboard and screen reader users start there. */
export function Title({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

/** An error in the chosen language: the API's message, or the app's own for a lost connection. */
export function ErrorText({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const text =
    error instanceof ApiError && error.code === 'NETWORK'
      ? t('app.networkError')
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

export function Badge({ tone, children }: { tone?: 'warn' | 'danger' | 'ok'; children: ReactNode }) {
  return <span className={`badge${tone ? ` ${tone}` : ''}`}>{children}</span>;
}

/** Label and value pairs, laid out as a definition list. */
export function Facts({ items }: { items: Array<[ReactNode, ReactNode]> }) {
  return (
    <dl className="facts">
      {items.map(([label, value], n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of facts in a fixed order
        <div key={n}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A paged list as usePagedList gives it: whether there is more and how to load it. */
export interface PagedSource {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): unknown;
}

/** The next page of a list, on request. */
export function MoreButton({ list }: { list: PagedSource }) {
  const { t } = useTranslation();
  if (!list.hasNextPage) return null;
  return (
    <button
      type="button"
      className="secondary more"
      disabled={list.isFetchingNextPage}
      onClick={() => void list.fetchNextPage()}
    >
      {t('app.more')}
    </button>
  );
}

export interface Column<T> {
  header: ReactNode;
  /** A plain label for narrow screens, where each row is a card of labelled values (default: the header's text). */
  label?: string;
  cell(row: T): ReactNode;
  className?: string;
}

/**
 * A table of rows; on a narrow screen each row is a card whose cells carry their column's label
 * (styles.css). With `more`, a button loads the next page of a paged list.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  empty,
  more,
  caption,
}: {
  columns: Column<T>[];
  rows: T[] | null;
  rowKey(row: T): string;
  empty?: ReactNode;
  more?: PagedSource;
  caption?: string;
}) {
  const { t } = useTranslation();
  if (!rows) return <p>{t('app.loading')}</p>;
  if (rows.length === 0) return <p>{empty ?? t('app.nothing')}</p>;
  return (
    <>
      <table className="list">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, n) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
              <th key={n} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column, n) => (
                <td
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
                  key={n}
                  data-label={column.label ?? (typeof column.header === 'string' ? column.header : '')}
                  className={column.className}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {more && <MoreButton list={more} />}
    </>
  );
}
