/**
 * One operation's detail (docs/decisions/history-and-trust.md): what the history's row says, larger,
 * with the operation's actions: its category, the receipt, 'Это не я', support, repeat and split. A
 * held operation leads to where it is confirmed; one that failed offers no money actions.
 */
import '../history.css';
import '../../../shared/ui/money-ui.css';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { useTransaction } from '../../../shared/api/transactions.ts';
import { ReceiptSlot } from '../../../shared/documents/document-slots.tsx';
import { formatDateTime } from '../../../shared/format/date.ts';
import { formatMoney, formatSignedMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import {
  operationStatus,
  readableCardMasks,
  transactionLook,
} from '../../../shared/money/transaction-display.ts';
import { pathTo } from '../../../shared/routes.ts';
import { NotMeButton } from '../../../shared/security/security-buttons.tsx';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { CategoryPicker } from '../../../shared/ui/category-picker.tsx';
import { ArrowLeftIcon } from '../../../shared/ui/icons.tsx';

export function OperationPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { id = '' } = useParams();
  const query = useTransaction(id);

  const back = (
    <Link to={pathTo('History')} className="back-link">
      <ArrowLeftIcon />
      {t('operation.back')}
    </Link>
  );
  if (query.isPending)
    return (
      <div className="home-page money-page">
        {back}
        <AreaLoading rows={3} />
      </div>
    );
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="home-page money-page">
        {back}
        <AreaError
          message={missing ? t('operation.notFound') : t('operation.error')}
          onRetry={missing ? undefined : () => query.refetch()}
        />
      </div>
    );
  }
  const operation = query.data;
  const look = transactionLook(operation.amount);
  const description = readableCardMasks(operation.description);
  const status = operationStatus(operation);
  const open = operation.hold?.status === 'held' || operation.hold?.status === 'awaiting_approval';
  const failed = operation.status === 'failed';
  const outgoing = look === 'withdrawal' && operation.kind !== 'exchange';
  const amount = formatSignedMoney(operation.amount, operation.currency_code, language);

  return (
    <div className="home-page money-page">
      {back}
      <h1 className="home-page__title">{t('operation.title')}</h1>
      <section className="panel operation" aria-labelledby="operation-description">
        <div className={`operation__head operation__head--${look}`}>
          <p className="operation__amount" data-testid="operation-amount">
            {amount}
          </p>
          <h2 id="operation-description" className="operation__description">
            {description}
          </h2>
        </div>
        <dl className="operation__facts">
          <div>
            <dt>{t('operation.when')}</dt>
            <dd>
              <time dateTime={operation.created_at}>{formatDateTime(operation.created_at, language)}</time>
            </dd>
          </div>
          <div>
            <dt>{t('operation.status')}</dt>
            <dd data-testid="operation-status">
              {status ? t(status.key) : t('transactions.status.complete')}
              {failed &&
                (operation.hold || operation.kind === 'withdrawal') &&
                ` · ${t('operation.returned')}`}
            </dd>
          </div>
          {operation.fee && (
            // A payout's fee is part of the operation (docs/decisions/sbp.md#fees), returned with it.
            <div>
              <dt>{t('operation.fee')}</dt>
              <dd data-testid="operation-fee">
                {formatMoney(operation.fee, operation.currency_code, language)}
              </dd>
            </div>
          )}
          {operation.category && (
            <div>
              <dt>{t('operation.category')}</dt>
              <dd>
                {failed || open ? (
                  operation.category.name
                ) : (
                  <CategoryPicker
                    transferId={operation.id}
                    category={operation.category}
                    description={description}
                  />
                )}
              </dd>
            </div>
          )}
        </dl>
        <h3 className="visually-hidden">{t('operation.actions')}</h3>
        <div className="operation__actions">
          {open && (
            <Link className="button button--primary" to={pathTo('Holds')}>
              {t('operation.openHold')}
            </Link>
          )}
          {!failed && !open && <ReceiptSlot operationId={operation.id} description={operation.description} />}
          {!failed && outgoing && (
            <NotMeButton operationId={operation.id} what={`${description}, ${amount}`} />
          )}
          {!failed && !open && outgoing && (operation.kind === 'transfer' || operation.way === 'sbp') && (
            <Link
              className="row-action"
              to={`${pathTo('WalletSave')}?repeat=${encodeURIComponent(operation.id)}`}
              aria-label={t('repeat.label', { description })}
            >
              {t('repeat.action')}
            </Link>
          )}
          {!failed && !open && outgoing && operation.category && (
            // 'Разделить' (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): the
            // request page's split, with this amount.
            <Link
              className="row-action"
              to={`${pathTo('WalletRequest')}?split=${encodeURIComponent(operation.amount.replace(/^-/, ''))}`}
              aria-label={t('split.fromHistoryLabel', { description })}
            >
              {t('split.fromHistory')}
            </Link>
          )}
          <Link
            className="row-action"
            to={`${pathTo('Support')}?operation=${encodeURIComponent(operation.id)}`}
          >
            {t('support.ask')}
          </Link>
        </div>
      </section>
    </div>
  );
}

export default OperationPage;
