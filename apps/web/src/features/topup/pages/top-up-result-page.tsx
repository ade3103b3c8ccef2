/**
 * The top-up result page (docs/product.md 'Top-up result page', docs/product.md#states-and-transitions and
 * docs/product.md#business-constants-and-limits): the payment page sends the browser here with ?order=<id>. A
 * modal opens waiting and the order's status is asked every 5000 ms: complete -> success, failed -> failed,
 * anything else keeps waiting. On success the wallet is asked again, so the new balance shows here and on
 * home. Closing goes to '/'.
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import '../../../shared/ui/pay-modal/pay-modal.css';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useAccounts } from '../../../shared/api/wallet.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { pathTo } from '../../../shared/routes.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { ModalFrame } from '../../../shared/ui/pay-modal/modal-frame.tsx';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { ResultView, WaitingView } from '../../../shared/ui/pay-modal/stage-views.tsx';
import {
  pollUntilFinal,
  TOP_UP_POLL_MS,
  type TopUpStage,
  topUpStage,
} from '../../../shared/ui/pay-modal/status-polling.ts';
import { WalletCarousel } from '../../../shared/ui/wallet-carousel.tsx';
import { loadTopUpStatus } from '../api/top-up-status.ts';

export function TopUpResultPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const [params] = useSearchParams();
  const order = params.get('order');
  const [stage, setStage] = useState<TopUpStage>(order ? 'waiting' : 'failed');
  const [amount, setAmount] = useState<{ amount: string; currency: string } | null>(null);

  useEffect(() => {
    if (!order) return;
    return pollUntilFinal({
      load: (signal) => loadTopUpStatus(order, signal),
      isFinal: (answer) => topUpStage(answer.status) !== 'waiting',
      onResult: (answer) => {
        setAmount({ amount: answer.amount, currency: answer.currency_code });
        const next = topUpStage(answer.status);
        setStage(next);
        if (next === 'success') void refreshAfterMoney(queryClient);
      },
      intervalMs: TOP_UP_POLL_MS,
    });
  }, [order, queryClient]);

  const close = () => navigate(pathTo('Home'));
  const money = amount ? formatMoney(amount.amount, amount.currency, language) : null;
  const rub = accounts.data?.find((account) => account.currency_code === (amount?.currency ?? 'RUB'));

  return (
    <div className="home-page money-page money-flow">
      <h1 className="home-page__title">{t('topUpResult.title')}</h1>
      {accounts.isPending ? (
        <AreaLoading rows={1} />
      ) : accounts.isError ? (
        <AreaError onRetry={() => accounts.refetch()} />
      ) : (
        <WalletCarousel accounts={accounts.data} />
      )}
      <ModalFrame
        open
        title={t('topUpResult.modalTitle')}
        closable={stage !== 'waiting'}
        onClose={close}
        testId="top-up-result"
        focusKey={stage}
      >
        {stage === 'waiting' && (
          <WaitingView>{money && <p className="pay-stage__amount">{money}</p>}</WaitingView>
        )}
        {stage === 'success' && (
          <ResultView
            tone="success"
            title={t('topUpResult.success')}
            actions={<Button onClick={close}>{t('topUpResult.close')}</Button>}
          >
            {money && (
              <p className="pay-stage__amount" data-testid="top-up-amount">
                {t('topUpResult.successAmount', { amount: money })}
              </p>
            )}
            {rub && (
              <p className="pay-stage__text" data-testid="top-up-balance">
                {t('topUpResult.newBalance', {
                  balance: formatMoney(rub.balance, rub.currency_code, language),
                })}
              </p>
            )}
          </ResultView>
        )}
        {stage === 'failed' && (
          <ResultView
            tone="failed"
            title={order ? t('topUpResult.failed') : t('topUpResult.noOrder')}
            actions={<Button onClick={close}>{t('topUpResult.close')}</Button>}
          >
            {money && <p className="pay-stage__text">{t('topUpResult.amount', { amount: money })}</p>}
            <p className="pay-stage__text">{t('topUpResult.failedText')}</p>
          </ResultView>
        )}
      </ModalFrame>
    </div>
  );
}

export default TopUpResultPage;
