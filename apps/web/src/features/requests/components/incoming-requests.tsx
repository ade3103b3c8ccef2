/**
 * Home's incoming requests
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers): each pending
 * request asked of the person, with 'Оплатить' (the PIN modal) and 'Отклонить'. Shows nothing while there are
 * none.
 */
import '../requests.css';
import type { AnswerOf } from '@e-wallet/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { type Confirmation, PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import type { PayOutcome } from '../../../shared/ui/pay-modal/pay-outcome.ts';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { declineRequest, requestsQuery, startRequestPay } from '../api/requests.ts';

type Request = AnswerOf<'requestLink'>;

export function IncomingRequests() {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const incoming = useQuery(requestsQuery('incoming'));
  const [paying, setPaying] = useState<{
    request: Request;
    send: (confirmation: Confirmation) => Promise<PayOutcome>;
  } | null>(null);
  const pending = incoming.data?.results.filter((request) => request.status === 'pending') ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['requests'] });
  // The modal outlives the list: paying the last request empties it while the receipt is shown.
  if (pending.length === 0 && !paying) return null;

  return (
    <>
      {pending.length > 0 && (
        <section
          className="panel requests-panel"
          aria-labelledby="incoming-requests-title"
          data-testid="incoming-requests"
        >
          <h2 id="incoming-requests-title" className="panel__title">
            {t('requests.incoming')}
          </h2>
          <ul className="requests-list">
            {pending.map((request) => (
              <li key={request.id} className="requests-list__item">
                <span className="requests-list__text">
                  <span className="requests-list__amount">
                    {formatMoney(request.amount, request.currency_code, language)}
                  </span>
                  <span>{t('requests.from', { name: named(request.counterparty ?? '') })}</span>
                  {request.comment && <span className="requests-list__comment">{request.comment}</span>}
                  <span className="requests-list__date">
                    {t('requests.expires', { date: formatDate(request.expires_at, language) })}
                  </span>
                </span>
                <span className="requests-list__actions">
                  <Button
                    type="button"
                    onClick={() => setPaying({ request, send: startRequestPay(request.id) })}
                  >
                    {t('requests.pay')}
                  </Button>
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={async () => {
                      await declineRequest(request.id).catch(() => undefined);
                      await refresh();
                    }}
                  >
                    {t('requests.decline')}
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {paying && (
        <PayModal
          open
          title={t('requests.modalTitle')}
          summary={
            <PaySummary
              amount={paying.request.amount}
              currency={paying.request.currency_code}
              to={named(paying.request.counterparty ?? '')}
            />
          }
          send={paying.send}
          successText={t('requests.paid')}
          onReceipt={() => {
            void refreshAfterMoney(queryClient);
            void refresh();
          }}
          onClose={() => setPaying(null)}
        />
      )}
    </>
  );
}
