/**
 * The merchant's latest refunds (docs/decisions/merchants.md#merchants), made with its API key: each
 * reached its payer at once from the balance; the tariff's fee on the payment is not returned, which the
 * panel says before the list, as the integration guide does.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { AreaLoading } from '../../../shared/ui/area.tsx';
import { merchantRefundsQuery } from '../api/merchants.ts';

export function RefundsPanel({ feePercent }: { feePercent: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const refunds = useQuery(merchantRefundsQuery);
  return (
    <section
      className="panel merchant-panel"
      aria-labelledby="merchant-refunds-title"
      data-testid="merchant-refunds"
    >
      <h2 id="merchant-refunds-title" className="panel__title">
        {t('merchants.refunds.title')}
      </h2>
      <p className="merchant-hint">{t('merchants.refunds.fee', { percent: feePercent })}</p>
      {refunds.isPending ? (
        <AreaLoading rows={1} />
      ) : (
        <ul className="merchant-list">
          {refunds.data?.results.length === 0 && <li>{t('merchants.refunds.none')}</li>}
          {refunds.data?.results.map((refund) => (
            <li key={refund.id} className="merchant-list__row">
              <span>
                <strong>{formatMoney(refund.amount, 'RUB', language)}</strong> ·{' '}
                {t('merchants.refunds.of', { payment: refund.payment_id.slice(0, 8) })}
                {refund.reason && ` · ${refund.reason}`}
              </span>
              <span className="merchant-list__date">{formatDate(refund.created_at, language)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
