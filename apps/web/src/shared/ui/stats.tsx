/**
 * Statistics by transaction type
 * (docs/decisions/placeholders-and-defects.md#placeholders-become-real-features): an SVG ring chart drawn
 * from the same entries as the list or the four tiles, each type with its own label and colour.
 */
import './money-ui.css';
import './stats.css';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stat } from '../api/stat.ts';
import { type StatFilter, useStat } from '../api/stat.ts';
import { formatMoney } from '../format/money.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { chartSegments, orderedStats, STAT_LEGEND } from '../money/stat-display.ts';
import { AreaError, AreaLoading } from './area.tsx';

const RADIUS = 15.9155; // a circumference of 100, so dash lengths are percents
const isNonZero = (amount: string) => !/^0(\.0+)?$/.test(amount);

export interface RingSegment {
  key: string;
  color: string;
  /** Its share of the ring, and where it starts, in percents. */
  percent: number;
  offset: number;
}

/** An SVG ring whose segments are percents of its circumference, with its centre's text as children. */
export function RingChart({
  label,
  segments,
  dataName,
  children,
}: {
  label: string;
  segments: RingSegment[];
  /** The `data-` attribute naming each segment's key (`data-type`, `data-category`). */
  dataName: string;
  children: ReactNode;
}) {
  return (
    <figure className="stat-chart">
      <svg viewBox="0 0 42 42" className="stat-chart__svg" role="img" aria-label={label}>
        <circle cx="21" cy="21" r={RADIUS} fill="none" stroke="var(--color-border)" strokeWidth="5" />
        {segments.map((segment) => (
          <circle
            key={segment.key}
            className="stat-chart__segment"
            {...{ [`data-${dataName}`]: segment.key }}
            cx="21"
            cy="21"
            r={RADIUS}
            fill="none"
            stroke={segment.color}
            strokeWidth="5"
            strokeDasharray={`${segment.percent} ${100 - segment.percent}`}
            // Start at twelve o'clock and go clockwise.
            strokeDashoffset={25 - segment.offset}
          />
        ))}
      </svg>
      <figcaption className="stat-chart__center" aria-hidden="true">
        {children}
      </figcaption>
    </figure>
  );
}

export function StatChart({ stat }: { stat: Stat }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const segments = chartSegments(stat.results);
  // In and out apart: one sum of both would add what came in to what went out.
  const income = formatMoney(stat.total_in, stat.currency_code, language);
  const spent = formatMoney(stat.total_out, stat.currency_code, language);
  return (
    <RingChart
      label={t('stats.chart', { income, spent })}
      segments={segments.map((segment) => ({ ...segment, key: segment.type }))}
      dataName="type"
    >
      <span className="stat-chart__total-label">{t('stats.income')}</span>
      <span className="stat-chart__total stat-chart__total--in" data-testid="stat-income">
        {isNonZero(stat.total_in) ? '+' : ''}
        {income}
      </span>
      <span className="stat-chart__total-label">{t('stats.spent')}</span>
      <span className="stat-chart__total stat-chart__total--out" data-testid="stat-spent">
        {isNonZero(stat.total_out) ? '−' : ''}
        {spent}
      </span>
    </RingChart>
  );
}

export function StatList({ stat }: { stat: Stat }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <ul className="stat-list">
      {/* Only what moved: a type with nothing in the period is no row (docs/decisions/history-and-trust.md). */}
      {orderedStats(stat.results)
        .filter((entry) => isNonZero(entry.amount))
        .map((entry) => {
          const legend = STAT_LEGEND[entry.wallet_transaction_type];
          const count = 'count' in entry ? entry.count : 0;
          return (
            <li
              key={entry.wallet_transaction_type}
              className={clsx('stat-list__item', `tone-${legend.tone}`)}
              data-type={entry.wallet_transaction_type}
            >
              <span className="stat-list__dot" aria-hidden="true" />
              <span className="stat-list__label">
                <span className="stat-list__name">{t(legend.labelKey)}</span>
                <span className="stat-list__count">{t('stats.count', { count })}</span>
                {'amount_in' in entry && isNonZero(entry.amount_in) && isNonZero(entry.amount_out) && (
                  <span className="stat-list__count">
                    {t('stats.split', {
                      income: formatMoney(entry.amount_in, stat.currency_code, language),
                      spent: formatMoney(entry.amount_out, stat.currency_code, language),
                    })}
                  </span>
                )}
              </span>
              <span className="stat-list__values">
                <span className="stat-list__amount">
                  {formatMoney(entry.amount, stat.currency_code, language)}
                </span>
                <span className="stat-list__percent">{entry.percent}%</span>
              </span>
            </li>
          );
        })}
    </ul>
  );
}

export function StatTiles({ stat }: { stat: Stat }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <ul className="stat-tiles">
      {orderedStats(stat.results).map((entry) => {
        const legend = STAT_LEGEND[entry.wallet_transaction_type];
        return (
          <li
            key={entry.wallet_transaction_type}
            className={clsx('stat-tile', legend.tone, `tone-${legend.tone}`)}
            data-type={entry.wallet_transaction_type}
          >
            <span className="stat-tile__name">{t(legend.labelKey)}</span>
            <span className="stat-tile__amount">
              {formatMoney(entry.amount, stat.currency_code, language)}
            </span>
            <span className="stat-tile__percent">{entry.percent}%</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The statistics of a range, queried here, with the chart and either the list or the tiles. */
export function StatSection({ filter, variant }: { filter: StatFilter; variant: 'list' | 'tiles' }) {
  const { t } = useTranslation();
  const query = useStat(filter);
  if (query.isPending) return <AreaLoading rows={3} />;
  if (query.isError && !query.data)
    return <AreaError message={t('stats.error')} onRetry={() => query.refetch()} />;
  const stat = query.data;
  return (
    <div
      className={clsx('stat-section', `stat-section--${variant}`)}
      aria-busy={query.isFetching || undefined}
    >
      <StatChart stat={stat} />
      <div className="stat-section__side">
        {stat.total === '0' || /^0(\.0+)?$/.test(stat.total) ? (
          <p className="stat-section__empty">{t('stats.empty')}</p>
        ) : null}
        {variant === 'list' ? <StatList stat={stat} /> : <StatTiles stat={stat} />}
      </div>
    </div>
  );
}
