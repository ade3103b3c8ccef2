/**
 * A list of transactions with the spec's display rules (section 4): by the sign of the amount,
 * zero is an 'operation', negative a 'withdrawal' in red with '-', positive a 'topup' with '+';
 * each with its long date and time in Russian. Loading, error and empty states are its own.
 */
import './money-ui.css';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Transaction, TransactionFilter } from '../api/transactions.ts';
import { useTransactions } from '../api/transactions.ts';
import { ReceiptSlot } from '../documents/document-slots.tsx';
import { formatDateTime } from '../format/date.ts';
import { formatSignedMoney } from '../format/money.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { readableCardMasks, transactionLook } from '../money/transaction-display.ts';
import { pathTo } from '../routes.ts';
import { NotMeButton } from '../security/security-buttons.tsx';
import { AreaError, AreaLoading } from './area.tsx';
import { CategoryPicker } from './category-picker.tsx';
import { ArrowDownIcon, ArrowUpIcon, DotsIcon } from './money-icons.tsx';

const LOOK_ICONS = { operation: DotsIcon, withdrawal: ArrowUpIcon, topup: ArrowDownIcon };

export function TransactionRow({
  transaction,
  reportable = false,
}: {
  transaction: Transaction;
  /** Offer 'Это не я' on an outgoing operation (history). */
  reportable?: boolean;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const look = transactionLook(transaction.amount);
  const Icon = LOOK_ICONS[look];
  const description = readableCardMasks(transaction.description);
  return (
    <li className={clsx('transaction', `transaction--${look}`)} data-look={look}>
      <span className="transaction__icon">
        <Icon />
      </span>
      <span className="transaction__main">
        <span className="transaction__description">{description}</span>
        <span className="transaction__meta">
          <time dateTime={transaction.created_at}>{formatDateTime(transaction.created_at, language)}</time>
          {transaction.category && !reportable && (
            <span className="transaction__category"> · {transaction.category.name}</span>
          )}
        </span>
        {transaction.category && reportable && (
          <CategoryPicker
            transferId={transaction.id}
            category={transaction.category}
            description={description}
          />
        )}
        <span className="transaction__documents">
          <ReceiptSlot operationId={transaction.id} description={transaction.description} />
          {reportable && look === 'withdrawal' && transaction.kind !== 'exchange' && (
            <NotMeButton
              operationId={transaction.id}
              what={`${description}, ${formatSignedMoney(transaction.amount, transaction.currency_code, language)}`}
            />
          )}
          {reportable && transaction.status !== 'complete' && (
            <Link
              className="row-action"
              to={`${pathTo('Support')}?operation=${encodeURIComponent(transaction.id)}`}
              aria-label={t('support.aboutOperation', { description })}
            >
              {t('support.ask')}
            </Link>
          )}
          {reportable && look === 'withdrawal' && transaction.kind === 'transfer' && (
            <Link
              className="row-action"
              to={`${pathTo('WalletSave')}?repeat=${encodeURIComponent(transaction.id)}`}
              aria-label={t('repeat.label', { description })}
            >
              {t('repeat.action')}
            </Link>
          )}
          {reportable && look === 'withdrawal' && transaction.category && (
            // 'Разделить' (docs/decisions.md section 22): the request page's split, with this amount.
            <Link
              className="row-action"
              to={`${pathTo('WalletRequest')}?split=${encodeURIComponent(transaction.amount.replace(/^-/, ''))}`}
              aria-label={t('split.fromHistoryLabel', { description })}
            >
              {t('split.fromHistory')}
            </Link>
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
              ? formatSignedMoney(transaction.exchange.to_amount, transaction.exchange.to_currency, language)
              : formatSignedMoney(
                  `-${transaction.exchange.from_amount}`,
                  transaction.exchange.from_currency,
                  language,
                )}
          </span>
        )}
        <span className="transaction__look">
          {transaction.wallet_transaction_type === 'other'
            ? t(`transactions.looks.${look}`)
            : t(`transactions.types.${transaction.wallet_transaction_type}`)}
        </span>
        {transaction.status !== 'complete' && (
          <span className={`transaction__status transaction__status--${transaction.status}`}>
            {t(`transactions.status.${transaction.status}`)}
          </span>
        )}
      </span>
    </li>
  );
}

export interface TransactionListProps {
  filter: TransactionFilter;
  /** Offer 'show more' when the server has another page. */
  paged?: boolean;
  /** The empty message for a chosen range rather than for a new wallet. */
  emptyText?: string;
  /** Offer 'Это не я' on each outgoing operation. */
  reportable?: boolean;
}

export function TransactionList({
  filter,
  paged = true,
  emptyText,
  reportable = false,
}: TransactionListProps) {
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
          <TransactionRow
            key={`${transaction.id}:${transaction.account_id}`}
            transaction={transaction}
            reportable={reportable}
          />
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
