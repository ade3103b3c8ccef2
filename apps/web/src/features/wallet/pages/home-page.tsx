/**
 * Home (docs/product.md 'Home'): the wallet carousel, top-up and withdraw buttons, the QR payment
 * promo and the latest transactions. Each area loads and fails on its own. Other features' panels
 * (held payments, approvals, incoming requests) come as `panels`, put together by app/home.tsx.
 */
import '../wallet.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../shared/routes.ts';
import { AreaBoundary } from '../../../shared/ui/area.tsx';
import { ArrowDownIcon, ArrowUpIcon, SendIcon } from '../../../shared/ui/money-icons.tsx';
import { TransactionList } from '../../../shared/ui/transaction-list.tsx';
import qrPromoUrl from '../assets/qr-promo.svg';
import { AccountsArea } from '../components/accounts-area.tsx';

export function HomePage({ panels }: { panels?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="home-page money-page">
      <h1 className="visually-hidden">{t('homePage.title')}</h1>
      <AreaBoundary>
        <AccountsArea />
      </AreaBoundary>
      <div className="home-actions">
        <Link to={pathTo('WalletTopUp')} className="button button--primary home-actions__button">
          <ArrowDownIcon />
          {t('actions.topup')}
        </Link>
        <Link to={pathTo('WalletWithdrawal')} className="button button--secondary home-actions__button">
          <ArrowUpIcon />
          {t('actions.withdraw')}
        </Link>
        <Link to={pathTo('WalletSave')} className="button button--secondary home-actions__button">
          <SendIcon />
          {t('actions.send')}
        </Link>
        <Link to={pathTo('WalletRequest')} className="button button--secondary home-actions__button">
          <ArrowDownIcon />
          {t('requests.ask')}
        </Link>
      </div>
      {panels}
      <section className="qr-promo" aria-labelledby="qr-promo-title">
        <div className="qr-promo__text">
          <h2 id="qr-promo-title" className="qr-promo__title">
            {t('homePage.qrTitle')}
          </h2>
          <p className="qr-promo__description">{t('homePage.qrText')}</p>
          <Link to={pathTo('Payment')} className="button button--primary qr-promo__action">
            {t('homePage.qrAction')}
          </Link>
        </div>
        <img
          className="qr-promo__image"
          src={qrPromoUrl}
          alt={t('homePage.qrImage')}
          width={240}
          height={200}
          fetchPriority="high"
        />
      </section>
      <section className="panel" aria-labelledby="latest-title">
        <div className="panel__head">
          <h2 id="latest-title" className="panel__title">
            {t('homePage.lastTransactions')}
          </h2>
          <Link to={pathTo('History')}>{t('homePage.allHistory')}</Link>
        </div>
        <AreaBoundary>
          <TransactionList filter={{ limit: 6 }} paged={false} />
        </AreaBoundary>
      </section>
    </div>
  );
}

export default HomePage;
