/**
 * One account (docs/product.md 'Wallet account page',
 * docs/decisions/placeholders-and-defects.md#placeholders-become-real-features): its balance, the payment
 * component, 'Данные счета' with the user's own e-mail and phone, and 'История' with a range picker, the
 * chart, the four statistics tiles from this account's transactions and the transactions themselves. An
 * unknown id, or another user's, shows 'not found'.
 */
import '../wallet.css';
import '../../../shared/ui/money-ui.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { StatementSlot } from '../../../shared/documents/document-slots.tsx';
import { formatDate } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { formatPhone } from '../../../shared/format/person.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { type DayRange, presetRange, rangeQuery } from '../../../shared/money/date-range.ts';
import { pathTo } from '../../../shared/routes.ts';
import { AreaBoundary, AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { CurrencyBadge } from '../../../shared/ui/currency-badge.tsx';
import { DateRangePicker } from '../../../shared/ui/date-range-picker.tsx';
import { ArrowLeftIcon } from '../../../shared/ui/icons.tsx';
import { PaymentActions } from '../../../shared/ui/payment-actions.tsx';
import { StatSection } from '../../../shared/ui/stats.tsx';
import { TransactionList } from '../../../shared/ui/transaction-list.tsx';
import { isNotFound, useAccount } from '../api/account.ts';

export function WalletIdPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const account = useAccount(id);

  if (account.isPending) return <AreaLoading rows={4} />;
  if (account.isError) {
    if (isNotFound(account.error)) return <AccountNotFound />;
    return <AreaError onRetry={() => account.refetch()} />;
  }
  const { data } = account;
  return (
    <div className="home-page money-page">
      <Link to={pathTo('Wallet')} className="back-link">
        <ArrowLeftIcon />
        {t('walletId.back')}
      </Link>
      <h1 className="home-page__title">{t('walletId.title', { currency: data.currency_code })}</h1>
      <div className="account-top">
        <BalanceCard currency={data.currency_code} balance={data.balance} />
        <PaymentActions />
        <Link
          to={`${pathTo('WalletExchange')}?from=${data.currency_code}`}
          className="button button--secondary account-top__exchange"
          data-testid="account-exchange"
        >
          {t('exchangePage.open')}
        </Link>
      </div>
      <AreaBoundary>
        <AccountDetails currency={data.currency_code} openedAt={data.created_at} />
      </AreaBoundary>
      <AccountHistory accountId={data.id} />
    </div>
  );
}

function BalanceCard({ currency, balance }: { currency: string; balance: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <section
      className={`balance-card account-card account-card--${currency.toLowerCase()}`}
      aria-label={t('walletId.balance')}
    >
      <span className="account-card__top">
        <CurrencyBadge currency={currency} size={48} />
        <span className="account-card__currency">{currency}</span>
      </span>
      <span className="account-card__label">{t('walletId.balance')}</span>
      <span className="account-card__balance balance-card__amount" data-testid="account-page-balance">
        {formatMoney(balance, currency, language)}
      </span>
    </section>
  );
}

function AccountDetails({ currency, openedAt }: { currency: string; openedAt: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { data: user, isPending, isError, refetch } = useAuthInfo();
  return (
    <section className="panel" aria-labelledby="details-title">
      <h2 id="details-title" className="panel__title panel__title--spaced">
        {t('walletId.details')}
      </h2>
      {isPending ? (
        <AreaLoading rows={1} />
      ) : isError || !user ? (
        <AreaError onRetry={() => refetch()} />
      ) : (
        <dl className="facts facts--grid">
          <div>
            <dt>{t('walletId.email')}</dt>
            <dd data-testid="details-email">{user.email}</dd>
          </div>
          <div>
            <dt>{t('walletId.phone')}</dt>
            <dd data-testid="details-phone">{formatPhone(user.phone)}</dd>
          </div>
          <div>
            <dt>{t('walletId.currency')}</dt>
            <dd>{currency}</dd>
          </div>
          <div>
            <dt>{t('walletId.openedAt')}</dt>
            <dd>{formatDate(openedAt, language)}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

function AccountHistory({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<DayRange>(() => presetRange('thisMonth', new Date()));
  const query = rangeQuery(range);
  return (
    <section className="panel" aria-labelledby="account-history-title">
      <div className="panel__head">
        <h2 id="account-history-title" className="panel__title">
          {t('walletId.history')}
        </h2>
        <div className="panel__actions">
          <StatementSlot accountId={accountId} />
          <DateRangePicker value={range} onChange={setRange} />
        </div>
      </div>
      <AreaBoundary>
        <StatSection filter={{ account: accountId, ...query }} variant="tiles" />
      </AreaBoundary>
      <h3 className="panel__subtitle">{t('transactions.title')}</h3>
      <AreaBoundary>
        <TransactionList filter={{ account: accountId, ...query }} emptyText={t('transactions.emptyRange')} />
      </AreaBoundary>
    </section>
  );
}

function AccountNotFound() {
  const { t } = useTranslation();
  return (
    <section className="home-card not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title" className="home-page__title">
        {t('walletId.notFound')}
      </h1>
      <p className="home-card__text">{t('walletId.notFoundText')}</p>
      <Link to={pathTo('Wallet')} className="button button--primary not-found__action">
        {t('walletId.toList')}
      </Link>
    </section>
  );
}

export default WalletIdPage;
