/**
 * A list of transactions with the spec's display rules (docs/product.md#states-and-transitions): by the sign
 * of the amount, zero is an 'operation', negative a 'withdrawal' in red with '-', positive a 'topup' with
 * '+'; each with its long date and time. Loading, error and empty states are its own.
 */
import './money-ui.css';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Transaction, TransactionFilter } from '../api/transactions.ts';
import { useTransactions } from '../api/transactions.ts';
import { formatDateTime } from '../format/date.ts';
import { formatMoney, formatSignedMoney } from '../format/money.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { operationStatus, readableCardMasks, transactionLook } from '../money/transaction-display.ts';
import { pathTo } from '../routes.ts';
import { AreaError, AreaLoading } from './area.tsx';
import { ArrowDownIcon, ArrowUpIcon, DotsIcon } from './money-icons.tsx';

const LOOK_ICONS = { operation: DotsIcon, withdrawal: ArrowUpIcon, topup: ArrowDownIcon };

/**
 * One operation as a row: what it was, with whom, when, its status and category, and the amount. The
 * row opens the operation's detail, where its actions are (receipt, 'Это не я', support, repeat, split).
 */
export function TransactionRow({ transaction }: { transaction: Transaction }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const look = transactionLook(transaction.amount);
  const Icon = LOOK_ICONS[look];
  const description = readableCardMasks(transaction.description);
  const status = operationStatus(transaction);
  return (
    <li className="transaction-item">
      <Link
        className={clsx('transaction', `transaction--${look}`)}
        data-look={look}
        to={pathTo('HistoryOperation', { id: transaction.id })}
      >
        <span className="transaction__icon">
          <Icon />
        </span>
        <span className="transaction__main">
          <span className="transaction__description">{description}</span>
          <span className="transaction__meta">
            <time dateTime={transaction.created_at}>{formatDateTime(transaction.created_at, language)}</time>
            {transaction.category && (
              <span className="transaction__category"> · {transaction.category.name}</span>
            )}
          </span>
        </span>
        <span className="transaction__side">
          <span className="transaction__amount" data-testid="transaction-amount">
            {formatSignedMoney(transaction.amount, transaction.currency_code, language)}
          </span>
          {transaction.exchange && (
            // An exchange is one operation with both amounts: the other leg below this one.
            <span className="transaction__counter" data-testid="transaction-counter-amount">
              {transaction.exchange.from_currency === transaction.currency_code
                ? formatSignedMoney(
                    transaction.exchange.to_amount,
                    transaction.exchange.to_currency,
                    language,
                  )
                : formatSignedMoney(
                    `-${transaction.exchange.from_amount}`,
                    transaction.exchange.from_currency,
                    language,
                  )}
            </span>
          )}
          {transaction.fee && (
            <span className="transaction__counter" data-testid="transaction-fee">
              {t('operation.feeShort', {
                amount: formatMoney(transaction.fee, transaction.currency_code, language),
              })}
            </span>
          )}
          {status ? (
            <span
              className={`transaction__status transaction__status--${status.tone}`}
              data-testid="transaction-status"
            >
              {t(status.key)}
            </span>
          ) : (
            <span className="transaction__look">
              {transaction.wallet_transaction_type === 'other'
                ? t(`transactions.looks.${look}`)
                : t(`transactions.types.${transaction.wallet_transaction_type}`)}
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}

export interface TransactionListProps {
  filter: TransactionFilter;
  /** Offer 'show more' when the server has another page. */
  paged?: boolean;
  /** The empty message for a chosen range rather than for a new wallet. */
  emptyText?: string;
}

export function TransactionList({ filter, paged = true, emptyText }: TransactionListProps) {
  const { t } = useTranslation();
  const query = useTransactions(filter);
  if (query.isPending) return <AreaLoading rows={3} />;
  if (query.isError && !query.data)
    return <AreaError message={t('transactions.error')} onRetry={() => query.refetch()} />;
  const transactions = query.data.pages.flatMap((page) => page.results);
  if (transactions.length === 0)
    return <p className="area-state area-state--empty">{emptyText ?? t('transactions.empty')}</p>;
  return (
    <div className="transactions">
      <ul className="transactions__list" aria-label={t('transactions.title')}>
        {transactions.map((transaction) => (
          <TransactionRow key={`${transaction.id}:${transaction.account_id}`} transaction={transaction} />
        ))}
      </ul>
      {query.isFetchNextPageError && (
        <AreaError message={t('transactions.error')} onRetry={() => query.fetchNextPage()} />
      )}
      {paged && query.hasNextPage && (
        <button
          type="button"
          className="button button--ghost transactions__more"
          onClick={() => query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
          aria-busy={query.isFetchingNextPage || undefined}
        >
          {query.isFetchingNextPage && <span className="spinner" aria-hidden="true" />}
          {t('transactions.more')}
        </button>
      )}
    </div>
  );
}
