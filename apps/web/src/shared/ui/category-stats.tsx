/**
 * Money spent by category (docs/decisions/managing-money.md#managing-money-categories-budgets-goals), from
 * GET /v2/wallet/stat?group_by=category: the same ring chart as the types' (its centre shows what was spent)
 * and a list, biggest first. Each category keeps its colour by its place in the fixed list; a person's own
 * ones share the last colours.
 */
import './categories.css';
import './money-ui.css';
import './stats.css';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { categoryStatQuery, type StatFilter } from '../api/stat.ts';
import { formatMoney } from '../format/money.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { AreaError, AreaLoading } from './area.tsx';
import { RingChart } from './stats.tsx';

/** The fixed categories' colours (their codes are the contract's FIXED_CATEGORIES). */
const COLORS: Record<string, string> = {
  groceries: '#1f9d63',
  cafes: '#e7a614',
  transport: '#2f6bff',
  telecom: '#0e8a9a',
  utilities: '#c2410c',
  health: '#d9403a',
  people: '#7a4dff',
  cash: '#64748b',
  other: '#a16207',
};
const OWN_COLORS = ['#db2777', '#0891b2', '#65a30d'];

function colorOf(category: string, index: number): string {
  return COLORS[category] ?? OWN_COLORS[index % OWN_COLORS.length]!;
}

export function CategoryStatSection({ filter }: { filter: StatFilter }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const query = useQuery(categoryStatQuery(filter));
  if (query.isPending) return <AreaLoading rows={3} />;
  if (query.isError && !query.data)
    return <AreaError message={t('stats.error')} onRetry={() => query.refetch()} />;
  const stat = query.data;
  const spent = formatMoney(stat.total, stat.currency_code, language);
  let offset = 0;
  const segments = stat.results
    .filter((entry) => entry.percent > 0)
    .map((entry, index) => {
      const segment = {
        key: entry.category,
        percent: entry.percent,
        color: colorOf(entry.category, index),
        offset,
      };
      offset += entry.percent;
      return segment;
    });
  return (
    <div className="stat-section stat-section--list" aria-busy={query.isFetching || undefined}>
      <RingChart label={t('statsBy.chart', { spent })} segments={segments} dataName="category">
        <span className="stat-chart__total-label">{t('stats.spent')}</span>
        <span className="stat-chart__total stat-chart__total--out" data-testid="category-spent">
          {spent}
        </span>
      </RingChart>
      <div className="stat-section__side">
        {stat.results.length === 0 ? (
          <p className="stat-section__empty">{t('statsBy.empty')}</p>
        ) : (
          <ul className="stat-list" data-testid="category-stats">
            {stat.results.map((entry, index) => (
              <li key={entry.category} className="stat-list__item" data-category={entry.category}>
                <svg className="stat-list__swatch" viewBox="0 0 10 10" aria-hidden="true">
                  <circle cx="5" cy="5" r="5" fill={colorOf(entry.category, index)} />
                </svg>
                <span className="stat-list__label">
                  <span className="stat-list__name">{entry.name}</span>
                  <span className="stat-list__count">{t('stats.count', { count: entry.count })}</span>
                </span>
                <span className="stat-list__values">
                  <span className="stat-list__amount">
                    {formatMoney(entry.amount, stat.currency_code, language)}
                  </span>
                  <span className="stat-list__percent">{entry.percent}%</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
