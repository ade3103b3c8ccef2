/**
 * Wallet accounts (docs/product.md 'Wallet accounts',
 * docs/decisions/placeholders-and-defects.md#placeholders-become-real-features): the list of accounts and a
 * working create-account panel: a currency selector (RUB, USD, EUR, IDR; currencies already open are
 * disabled), the user's real data, and a button that opens the account.
 */
import '../wallet.css';
import { ACCOUNT_CURRENCIES, type AccountCurrency } from '@e-wallet/contract/money';
import { clsx } from 'clsx';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { useAccounts, type WalletAccount } from '../../../shared/api/wallet.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { formatPhone } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { pathTo } from '../../../shared/routes.ts';
import { AreaBoundary, AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { CurrencyBadge } from '../../../shared/ui/currency-badge.tsx';
import { ChevronRightIcon } from '../../../shared/ui/money-icons.tsx';
import { useOpenAccount } from '../api/open-account.ts';

export function WalletPage() {
  const { t } = useTranslation();
  return (
    <div className="home-page money-page">
      <h1 className="home-page__title">{t('wallet.title')}</h1>
      <div className="wallet-grid">
        <section className="panel" aria-labelledby="accounts-title">
          <h2 id="accounts-title" className="panel__title panel__title--spaced">
            {t('wallet.list')}
          </h2>
          <AreaBoundary>
            <AccountList />
          </AreaBoundary>
          <Link
            to={pathTo('WalletExchange')}
            className="button button--secondary wallet-exchange-link"
            data-testid="wallet-exchange"
          >
            {t('exchangePage.open')}
          </Link>
          <Link
            to={pathTo('Savings')}
            className="button button--secondary wallet-exchange-link"
            data-testid="wallet-savings"
          >
            {t('savings.title')}
          </Link>
        </section>
        <AreaBoundary>
          <CreateAccountPanel />
        </AreaBoundary>
      </div>
    </div>
  );
}

function AccountList() {
  const { t } = useTranslation();
  const accounts = useAccounts();
  if (accounts.isPending) return <AreaLoading rows={2} />;
  if (accounts.isError) return <AreaError onRetry={() => accounts.refetch()} />;
  if (accounts.data.length === 0)
    return <p className="area-state area-state--empty">{t('accounts.empty')}</p>;
  return (
    <ul className="account-list" data-testid="account-list">
      {accounts.data.map((account) => (
        <AccountRow key={account.id} account={account} />
      ))}
    </ul>
  );
}

function AccountRow({ account }: { account: WalletAccount }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const currency = account.currency_code as AccountCurrency;
  return (
    <li>
      <Link
        to={pathTo('WalletId', { id: account.id })}
        className="account-row"
        data-currency={account.currency_code}
      >
        <CurrencyBadge currency={account.currency_code} />
        <span className="account-row__main">
          <span className="account-row__name">
            {t('accounts.account', { currency: account.currency_code })}
          </span>
          <span className="account-row__meta">{t(`wallet.create.currencies.${currency}`)}</span>
        </span>
        <span className="account-row__balance">
          {formatMoney(account.balance, account.currency_code, language)}
        </span>
        <ChevronRightIcon className="account-row__chevron" />
      </Link>
    </li>
  );
}

function CreateAccountPanel() {
  const { t } = useTranslation();
  const named = useName();
  const accounts = useAccounts();
  const { data: user } = useAuthInfo();
  const openAccount = useOpenAccount();
  const [choice, setChoice] = useState<AccountCurrency | null>(null);
  const [opened, setOpened] = useState<WalletAccount | null>(null);

  const openCurrencies = new Set(accounts.data?.map((account) => account.currency_code) ?? []);
  const available = ACCOUNT_CURRENCIES.filter((currency) => !openCurrencies.has(currency));
  const selected = choice && !openCurrencies.has(choice) ? choice : (available[0] ?? null);
  const error =
    openAccount.error instanceof ApiError
      ? (openAccount.error.answer?.message ?? t('common.unexpectedError'))
      : openAccount.error
        ? t('common.unexpectedError')
        : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!selected) return;
    setOpened(null);
    openAccount.mutate(selected, {
      onSuccess: (account) => {
        setOpened(account);
        setChoice(null);
      },
    });
  };

  return (
    <section className="panel create-account" aria-labelledby="create-title">
      <h2 id="create-title" className="panel__title">
        {t('wallet.create.title')}
      </h2>
      <p className="create-account__text">{t('wallet.create.text')}</p>
      <form onSubmit={submit} className="create-account__form">
        <fieldset className="currency-picker" disabled={accounts.isPending}>
          <legend className="currency-picker__legend">{t('wallet.create.currency')}</legend>
          {ACCOUNT_CURRENCIES.map((currency) => {
            const isOpen = openCurrencies.has(currency);
            return (
              <label
                key={currency}
                className={clsx(
                  'currency-option',
                  isOpen && 'currency-option--open',
                  selected === currency && 'currency-option--checked',
                )}
              >
                <input
                  type="radio"
                  name="currency"
                  value={currency}
                  checked={selected === currency}
                  disabled={isOpen}
                  onChange={() => setChoice(currency)}
                  className="currency-option__input"
                />
                <CurrencyBadge currency={currency} size={36} />
                <span className="currency-option__text">
                  <span className="currency-option__code">{currency}</span>
                  <span className="currency-option__name">
                    {t(`wallet.create.currencies.${currency}`)}
                    {isOpen && ` · ${t('wallet.create.alreadyOpen')}`}
                  </span>
                </span>
              </label>
            );
          })}
        </fieldset>
        {user && (
          <div className="create-account__owner">
            <h3 className="create-account__owner-title">{t('wallet.create.owner')}</h3>
            <dl className="facts">
              <div>
                <dt>{t('wallet.create.name')}</dt>
                <dd>{named(`${user.first_name} ${user.last_name}`)}</dd>
              </div>
              <div>
                <dt>{t('profile.phone')}</dt>
                <dd>{formatPhone(user.phone)}</dd>
              </div>
              <div>
                <dt>{t('profile.email')}</dt>
                <dd>{user.email}</dd>
              </div>
            </dl>
          </div>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {opened && (
          <p className="form-note" role="status">
            {t('wallet.create.done', { currency: opened.currency_code })}.{' '}
            <Link to={pathTo('WalletId', { id: opened.id })}>
              {t('accounts.open', { currency: opened.currency_code })}
            </Link>
          </p>
        )}
        {available.length === 0 && !accounts.isPending ? (
          <p className="create-account__all">{t('wallet.create.allOpen')}</p>
        ) : (
          <Button type="submit" block busy={openAccount.isPending} disabled={!selected}>
            {t('wallet.create.submit')}
            {selected ? ` ${selected}` : ''}
          </Button>
        )}
      </form>
    </section>
  );
}

export default WalletPage;
