/**
 * `/pay/r/:token`: the request behind a link (the requester masked), paid with the PIN or declined.
 * Signed out, the home layout keeps this path and the sign-in comes back here.
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import '../requests.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { formatDate } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { pathTo } from '../../../shared/routes.ts';
import { AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { CheckedPay, useMoneyCheck } from '../../../shared/ui/pay-modal/money-check.tsx';
import { type Confirmation, PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import type { PayOutcome } from '../../../shared/ui/pay-modal/pay-outcome.ts';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { checkRequestPay, declineRequest, requestLinkQuery, startRequestPay } from '../api/requests.ts';

export function PayRequestPage() {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const { token = '' } = useParams();
  const request = useQuery(requestLinkQuery(token));
  const [send, setSend] = useState<((confirmation: Confirmation) => Promise<PayOutcome>) | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['requests'] });

  const failure = request.isError
    ? request.error instanceof ApiError && request.error.answer
      ? request.error.answer.message
      : t('common.networkError')
    : null;
  const data = request.data;
  // What would refuse the pay is said before the PIN, with the way out; the fraud database's
  // refusal is only known after it (the pay's own answer).
  const [paid, setPaid] = useState(false);
  const payable = data?.status === 'pending' && data.direction === 'incoming' && !paid;
  const check = useMoneyCheck('requestPay', payable ? { id: data.id } : null, checkRequestPay);

  return (
    <div className="home-page money-page money-flow">
      <h1 className="home-page__title">{t('requests.payTitle')}</h1>
      <section className="panel money-flow__panel" data-testid="pay-request">
        {request.isPending ? (
          <AreaLoading rows={1} />
        ) : failure || !data ? (
          <p role="alert">{failure ?? t('requests.notFound')}</p>
        ) : (
          <div className="share-box">
            <p className="requests-list__amount" data-testid="pay-request-amount">
              {formatMoney(data.amount, data.currency_code, language)}
            </p>
            <p>
              {data.direction === 'outgoing'
                ? t('requests.own')
                : t('requests.to', { name: named(data.counterparty ?? '') })}
            </p>
            {data.comment && <p className="requests-list__comment">{data.comment}</p>}
            <p data-testid="pay-request-status">
              {t(`requests.status.${data.status}`)}
              {data.status === 'pending' &&
                ` · ${t('requests.expires', { date: formatDate(data.expires_at, language) })}`}
            </p>
            {data.status === 'pending' && data.direction === 'incoming' && (
              <>
                <CheckedPay check={check} onPay={() => setSend(() => startRequestPay(data.id))}>
                  {t('requests.pay')}
                </CheckedPay>
                <Button
                  type="button"
                  variant="secondary"
                  block
                  onClick={async () => {
                    await declineRequest(data.id).catch(() => undefined);
                    await refresh();
                  }}
                >
                  {t('requests.decline')}
                </Button>
              </>
            )}
            <Link to={pathTo('Home')}>{t('requests.toHome')}</Link>
          </div>
        )}
      </section>
      {send && data && (
        <PayModal
          open
          title={t('requests.modalTitle')}
          summary={
            <PaySummary
              amount={data.amount}
              currency={data.currency_code}
              to={data.counterparty ? named(data.counterparty) : undefined}
            />
          }
          send={send}
          successText={t('requests.paid')}
          onReceipt={() => {
            void refreshAfterMoney(queryClient);
            void refresh();
          }}
          onClose={() => setSend(null)}
          onDone={() => setPaid(true)}
        />
      )}
    </div>
  );
}

export default PayRequestPage;
