/**
 * `/pay/m/:id`: a merchant's payment as its payer sees it (docs/decisions/merchants.md#merchants): the
 * trading name with the verified mark, its INN, the amount, the description, no fee; paid with the PIN or
 * a passkey in the pay modal, then back to the shop's return address with the payment's id. `/pay/shop/:id`,
 * a merchant's static QR, asks the amount first (shop-amount.tsx).
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import '../../../shared/ui/money-ui.css';
import '../merchants.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { formatDate } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { AreaLoading } from '../../../shared/ui/area.tsx';
import { CheckedPay, useMoneyCheck } from '../../../shared/ui/pay-modal/money-check.tsx';
import { type Confirmation, PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import type { PayOutcome } from '../../../shared/ui/pay-modal/pay-outcome.ts';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { checkMerchantPay, merchantPaymentQuery, startMerchantPay } from '../api/merchants.ts';
import { ShopAmount } from '../components/shop-amount.tsx';

/** The shop's return address with the payment's id, or null when it is not a web address. */
function returnTo(url: string | null, id: string): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    parsed.searchParams.set('payment_id', id);
    return parsed.toString();
  } catch {
    return null;
  }
}

export function PayMerchantPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  // A static QR at the till names the merchant, not a payment: the amount is typed first.
  const shop = useLocation().pathname.toLowerCase().startsWith('/pay/shop/');
  if (shop)
    return (
      <div className="home-page money-page money-flow">
        <h1 className="home-page__title">{t('merchants.pay.title')}</h1>
        <section className="panel money-flow__panel">
          <ShopAmount merchant={id} />
        </section>
      </div>
    );
  return <MerchantPayment id={id} />;
}

function MerchantPayment({ id }: { id: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const payment = useQuery(merchantPaymentQuery(id));
  const [send, setSend] = useState<((confirmation: Confirmation) => Promise<PayOutcome>) | null>(null);
  const data = payment.data;
  const failure = payment.isError
    ? payment.error instanceof ApiError && payment.error.answer
      ? payment.error.answer.message
      : t('common.networkError')
    : null;
  const back = data ? returnTo(data.return_url, data.id) : null;
  // What would refuse the pay is said before the PIN (docs/decisions/account.md#self-protection-and-the-answers-before-the-pin).
  const check = useMoneyCheck(
    'merchantPay',
    data?.status === 'pending' ? { id: data.id } : null,
    checkMerchantPay,
  );

  return (
    <div className="home-page money-page money-flow">
      <h1 className="home-page__title">{t('merchants.pay.title')}</h1>
      <section className="panel money-flow__panel" data-testid="pay-merchant">
        {payment.isPending ? (
          <AreaLoading rows={2} />
        ) : failure || !data ? (
          <p role="alert">{failure ?? t('merchants.pay.notFound')}</p>
        ) : (
          <div className="merchant-pay">
            <p className="merchant-pay__name">
              <span data-testid="pay-merchant-name">{data.merchant.name}</span>
              {data.merchant.verified && (
                <span className="merchant-pay__verified" title={t('merchants.pay.verified')}>
                  ✓ {t('merchants.pay.verified')}
                </span>
              )}
            </p>
            <p className="merchant-pay__inn">{t('merchants.pay.inn', { inn: data.merchant.inn })}</p>
            <p className="merchant-pay__amount" data-testid="pay-merchant-amount">
              {formatMoney(data.amount, data.currency_code, language)}
            </p>
            {data.description && <p className="merchant-pay__description">{data.description}</p>}
            <p className="merchant-pay__fee">{t('merchants.pay.noFee')}</p>
            <p data-testid="pay-merchant-status" className="merchant-pay__status">
              {t(`merchants.pay.status.${data.status}`)}
              {data.status === 'pending' &&
                ` · ${t('merchants.pay.until', { date: formatDate(data.expires_at, language) })}`}
            </p>
            {data.status === 'pending' && (
              <CheckedPay check={check} onPay={() => setSend(() => startMerchantPay(data.id))}>
                {t('merchants.pay.button')}
              </CheckedPay>
            )}
            {data.status === 'succeeded' && back && (
              <a className="button button--primary button--block" href={back} data-testid="pay-merchant-back">
                {t('merchants.pay.back')}
              </a>
            )}
          </div>
        )}
      </section>
      {send && data && (
        <PayModal
          open
          title={t('merchants.pay.modalTitle')}
          summary={<PaySummary amount={data.amount} currency={data.currency_code} to={data.merchant.name} />}
          send={send}
          successText={t('merchants.pay.paid')}
          onReceipt={() => {
            void refreshAfterMoney(queryClient);
            void queryClient.invalidateQueries({ queryKey: ['merchant-payment', id] });
          }}
          onClose={() => setSend(null)}
          onDone={() => {
            void queryClient.invalidateQueries({ queryKey: ['merchant-payment', id] });
          }}
        />
      )}
    </div>
  );
}

export default PayMerchantPage;
