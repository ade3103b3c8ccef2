/**
 * `/business` ('Бизнес'): the application for a merchant account, its status, and once approved the
 * dashboard: the balance and tariff, the settlement to its bank (docs/decisions/merchants.md#settlement),
 * the payments, the API keys, the notification URL and its deliveries (docs/decisions/merchants.md#merchants).
 */
import '../merchants.css';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-error.ts';
import { StatementSlot } from '../../../shared/documents/document-slots.tsx';
import { formatDate } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { AreaBoundary, AreaLoading } from '../../../shared/ui/area.tsx';
import { merchantPaymentsQuery, merchantQuery } from '../api/merchants.ts';
import { ApplyForm } from '../components/apply-form.tsx';
import { KeysPanel } from '../components/keys-panel.tsx';
import { RefundsPanel } from '../components/refunds-panel.tsx';
import { SettlementPanel } from '../components/settlement-panel.tsx';
import { TillQr } from '../components/till-qr.tsx';
import { WebhookPanel } from '../components/webhook-panel.tsx';

/** The tariff's percent as people read it: '1.50' is '1,5' in Russian and '1.5' in English. */
function percentText(percent: string, language: string): string {
  const short = percent.replace(/\.?0+$/, '');
  return language === 'ru' ? short.replace('.', ',') : short;
}

function Payments() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const payments = useQuery(merchantPaymentsQuery);
  return (
    <section
      className="panel merchant-panel"
      aria-labelledby="merchant-payments-title"
      data-testid="merchant-payments"
    >
      <h2 id="merchant-payments-title" className="panel__title">
        {t('merchants.payments')}
      </h2>
      {payments.isPending ? (
        <AreaLoading rows={2} />
      ) : (
        <ul className="merchant-list">
          {payments.data?.results.length === 0 && <li>{t('merchants.noPayments')}</li>}
          {payments.data?.results.map((payment) => (
            <li key={payment.id} className="merchant-list__row">
              <span>
                <strong>{formatMoney(payment.amount, 'RUB', language)}</strong> · {payment.order_id ?? '—'} ·{' '}
                {t(`merchants.paymentStatus.${payment.status}`)}
                {payment.payer && ` · ${payment.payer}`}
                {payment.refunded_amount !== '0.00' &&
                  ` · ${t('merchants.refunded', { amount: formatMoney(payment.refunded_amount, 'RUB', language) })}`}
              </span>
              <span className="merchant-list__date">{formatDate(payment.created_at, language)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function BusinessPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const merchant = useQuery(merchantQuery);
  const missing = merchant.error instanceof ApiError && merchant.error.answer?.code === 'MERCHANT_NOT_FOUND';
  const data = merchant.data?.merchant;
  return (
    <div className="home-page money-page merchant-page" data-testid="business-page">
      <h1 className="home-page__title">{t('merchants.title')}</h1>
      <div className="merchant-grid">
        <div className="merchant-column">
          <section className="panel merchant-panel" aria-labelledby="merchant-title">
            <h2 id="merchant-title" className="panel__title">
              {data?.name ?? t('merchants.title')}
            </h2>
            {merchant.isPending ? (
              <AreaLoading rows={2} />
            ) : missing ? (
              <ApplyForm />
            ) : !data ? (
              <p role="alert">{t('common.networkError')}</p>
            ) : (
              <div className="merchant-summary">
                <p
                  data-testid="merchant-status"
                  className={`merchant-status merchant-status--${data.status}`}
                >
                  {t(`merchants.status.${data.status}`)}
                </p>
                {data.reason && <p>{t('merchants.reason', { reason: data.reason })}</p>}
                <p className="merchant-summary__balance">
                  {t('merchants.balance')}:{' '}
                  <strong data-testid="merchant-balance">{formatMoney(data.balance, 'RUB', language)}</strong>
                </p>
                <p>{t('merchants.fee', { percent: percentText(data.fee_percent, language) })}</p>
                <p>
                  {t('merchants.merchantId')}: <code data-testid="merchant-id">{data.id}</code>
                </p>
                {data.status === 'active' && <TillQr merchant={data.id} />}
                <StatementSlot accountId={data.account_id} accountLabel={t('merchants.statementAccount')} />
              </div>
            )}
          </section>
          {data?.status === 'active' && (
            <>
              <AreaBoundary>
                <SettlementPanel merchant={data} />
              </AreaBoundary>
              <AreaBoundary>
                <Payments />
              </AreaBoundary>
              <AreaBoundary>
                <RefundsPanel feePercent={percentText(data.fee_percent, language)} />
              </AreaBoundary>
            </>
          )}
        </div>
        {data?.status === 'active' && (
          <div className="merchant-column">
            <AreaBoundary>
              <KeysPanel />
            </AreaBoundary>
            <AreaBoundary>
              <WebhookPanel url={data.notification_url} secret={data.webhook_secret} />
            </AreaBoundary>
          </div>
        )}
      </div>
    </div>
  );
}

export default BusinessPage;
