/**
 * History (docs/product.md 'History',
 * docs/decisions/placeholders-and-defects.md#placeholders-become-real-features): the range picker, the
 * carousel that chooses the account, the payment buttons, the statistics chart (SVG from GET /v2/wallet/stat)
 * and list, and the transactions in pages. Statistics are per currency, so both follow the chosen account.
 */
import '../history.css';
import '../../../shared/ui/toggle-group.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccounts } from '../../../shared/api/wallet.ts';
import { StatementSlot } from '../../../shared/documents/document-slots.tsx';
import { type DayRange, presetRange, rangeQuery } from '../../../shared/money/date-range.ts';
import { AreaBoundary, AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { CategorySelect } from '../../../shared/ui/category-select.tsx';
import { CategoryStatSection } from '../../../shared/ui/category-stats.tsx';
import { DateRangePicker } from '../../../shared/ui/date-range-picker.tsx';
import { PaymentActions } from '../../../shared/ui/payment-actions.tsx';
import { StatSection } from '../../../shared/ui/stats.tsx';
import { TransactionList } from '../../../shared/ui/transaction-list.tsx';
import { WalletCarousel } from '../../../shared/ui/wallet-carousel.tsx';

export function HistoryPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<DayRange>(() => presetRange('thisMonth', new Date()));
  const [chosenId, setChosenId] = useState<string | null>(null);
  const accounts = useAccounts();
  const accountId =
    accounts.data?.find((account) => account.id === chosenId)?.id ?? accounts.data?.[0]?.id ?? null;
  const filter = { account: accountId ?? undefined, ...rangeQuery(range) };
  // Statistics by type or by category, and the list of one category's spending
  // (docs/decisions/managing-money.md#managing-money-categories-budgets-goals).
  const [grouping, setGrouping] = useState<'type' | 'category'>('type');
  const [category, setCategory] = useState('');

  return (
    <div className="home-page money-page">
      <div className="history-head">
        <h1 className="home-page__title">{t('history.title')}</h1>
        <div className="history-head__actions">
          <StatementSlot accountId={accountId} />
          <DateRangePicker value={range} onChange={setRange} />
        </div>
      </div>
      <AreaBoundary onRetry={() => accounts.refetch()}>
        {accounts.isPending ? (
          <AreaLoading rows={1} />
        ) : accounts.isError ? (
          <AreaError onRetry={() => accounts.refetch()} />
        ) : (
          <WalletCarousel
            accounts={accounts.data}
            selectedId={accountId}
            onSelect={(account) => setChosenId(account.id)}
          />
        )}
      </AreaBoundary>
      <PaymentActions />
      {accountId && (
        <>
          <section className="panel" aria-labelledby="stats-title">
            <div className="history-panel-head">
              <h2 id="stats-title" className="panel__title">
                {t('stats.title')}
              </h2>
              <fieldset className="toggle-group">
                <legend className="visually-hidden">{t('statsBy.label')}</legend>
                {(['type', 'category'] as const).map((by) => (
                  <button
                    key={by}
                    type="button"
                    className="toggle-group__option"
                    aria-pressed={grouping === by}
                    onClick={() => setGrouping(by)}
                  >
                    {t(`statsBy.${by}`)}
                  </button>
                ))}
              </fieldset>
            </div>
            <AreaBoundary>
              {grouping === 'type' ? (
                <StatSection filter={filter} variant="list" />
              ) : (
                <CategoryStatSection filter={filter} />
              )}
            </AreaBoundary>
          </section>
          <section className="panel" aria-labelledby="history-transactions-title">
            <div className="history-panel-head">
              <h2 id="history-transactions-title" className="panel__title">
                {t('transactions.title')}
              </h2>
              <div className="history-category">
                <CategorySelect
                  label={t('categories.filter')}
                  anyLabel={t('categories.all')}
                  value={category}
                  onChange={setCategory}
                />
              </div>
            </div>
            <AreaBoundary>
              <TransactionList
                filter={{ ...filter, ...(category ? { category } : {}) }}
                emptyText={t('transactions.emptyRange')}
              />
            </AreaBoundary>
          </section>
        </>
      )}
    </div>
  );
}

export default HistoryPage;
