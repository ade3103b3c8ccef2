/**
 * Settlement (docs/decisions/merchants.md#settlement): the balance that can go to the merchant's bank
 * account, 'pay out now' with the PIN or a passkey in the pay modal, the daily hour, and the history with
 * each settlement's status.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callOk } from '../../../shared/api/client.ts';
import { formatDate } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { type Confirmation, PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import type { PayOutcome } from '../../../shared/ui/pay-modal/pay-outcome.ts';
import { merchantSettlementsQuery, startSettlement } from '../api/merchants.ts';

type Merchant = AnswerOf<'merchantOwn'>['merchant'];

export function SettlementPanel({ merchant }: { merchant: Merchant }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const settlements = useQuery(merchantSettlementsQuery);
  const [send, setSend] = useState<((confirmation: Confirmation) => Promise<PayOutcome>) | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['merchant'] });
  const empty = merchant.balance === '0.00';
  return (
    <section
      className="panel merchant-panel"
      aria-labelledby="merchant-settlement-title"
      data-testid="merchant-settlement"
    >
      <h2 id="merchant-settlement-title" className="panel__title">
        {t('merchants.settlement.title')}
      </h2>
      <p className="merchant-summary__balance">
        {t('merchants.settlement.available')}:{' '}
        <strong data-testid="merchant-settlement-available">
          {formatMoney(merchant.balance, 'RUB', language)}
        </strong>
      </p>
      <p className="merchant-hint">
        {t('merchants.settlement.account', { account: merchant.bank_account, bic: merchant.bank_bic })}
        <br />
        {t('merchants.settlement.daily', { hour: merchant.settlement_hour })}
      </p>
      <Button type="button" disabled={empty} onClick={() => setSend(() => startSettlement())}>
        {t('merchants.settlement.now')}
      </Button>
      <h3 className="merchant-subtitle">{t('merchants.settlement.history')}</h3>
      <ul className="merchant-list" data-testid="merchant-settlements">
        {settlements.data?.results.length === 0 && <li>{t('merchants.settlement.none')}</li>}
        {settlements.data?.results.map((settlement) => (
          <li key={settlement.id} className="merchant-list__row">
            <span>
              <strong>{formatMoney(settlement.amount, 'RUB', language)}</strong> ·{' '}
              <span className={`merchant-settlement--${settlement.status}`}>
                {t(`merchants.settlement.status.${settlement.status}`)}
              </span>{' '}
              · {t(`merchants.settlement.origin.${settlement.origin}`)}
              {settlement.failure_reason && ` · ${settlement.failure_reason}`}
            </span>
            <span className="merchant-list__date">{formatDate(settlement.created_at, language)}</span>
          </li>
        ))}
      </ul>
      {send && (
        <PayModal
          open
          title={t('merchants.settlement.modalTitle')}
          summary={<PaySummary amount={merchant.balance} currency="RUB" to={merchant.bank_account} />}
          send={send}
          successText={t('merchants.settlement.sent')}
          refreshReceipt={(receipt) => callOk('withdrawalReceipt', { params: { id: receipt.id } })}
          onReceipt={() => void refresh()}
          onClose={() => setSend(null)}
          onDone={() => void refresh()}
        />
      )}
    </section>
  );
}
