/**
 * Withdrawal to a card (docs/product.md 'Withdrawal', docs/product.md#states-and-transitions and
 * docs/product.md#validation-rules): 'Вывод на карту' with the RUB account, 'Сумма', 'Карта' and 'Вывести',
 * disabled while card or amount is empty or withdrawal is not allowed (then, instead of the form, why and the
 * identification that opens it). 'Вывести' opens the pay modal: PIN, waiting, success ('Заявка на вывод
 * средств успешно создана!') or failed, and the real receipt, followed until the payout settles or fails (a
 * failed payout brings the money back).
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import { CASH_CURRENCY } from '@e-wallet/contract/money';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { useAccounts, type WalletAccount } from '../../../shared/api/wallet.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { IdentificationSection } from '../../../shared/identification/identification-section.tsx';
import { SbpForm, WayChoice } from '../../../shared/sbp/sbp-form.tsx';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { CurrencyBadge } from '../../../shared/ui/currency-badge.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField, useAmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { cardProblem, maskCard } from '../../../shared/ui/pay-modal/card-number.ts';
import {
  CheckNextSteps,
  CheckProblems,
  LimitMeter,
  useMoneyCheck,
} from '../../../shared/ui/pay-modal/money-check.tsx';
import { MoneyNotice } from '../../../shared/ui/pay-modal/notice.tsx';
import type { Confirmation } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import type { PayOutcome } from '../../../shared/ui/pay-modal/pay-outcome.ts';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { loadWithdrawalReceipt, startWithdrawal } from '../api/withdrawal.ts';
import { checkWithdrawal } from '../api/withdrawal-check.ts';
import { CardField } from '../components/card-field.tsx';

interface Pending {
  amount: string;
  pan: string;
  send: (confirmation: Confirmation) => Promise<PayOutcome>;
}

export function WithdrawalPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const authInfo = useAuthInfo();
  const accounts = useAccounts();
  const amountField = useAmountField();
  const amount = amountField.value;
  const [card, setCard] = useState('');
  const [cardError, setCardError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  // To a card, or by СБП to an account in any bank (docs/decisions/sbp.md#sending-by-sbp).
  const [way, setWay] = useState<'card' | 'sbp'>('card');

  const rubAccounts = accounts.data?.filter((account) => account.currency_code === CASH_CURRENCY) ?? [];
  const allowed = authInfo.data?.is_withdrawal_allowed ?? false;
  const typed = checkAmount(amount, CASH_CURRENCY);
  const cardReady = !cardProblem(card);
  // The card is sent once complete; the amount alone already meets the balance and the limits.
  const check = useMoneyCheck(
    'withdrawal',
    typed.ok
      ? { amount: typed.amount, currency_code: CASH_CURRENCY, ...(cardReady ? { pan: card } : {}) }
      : null,
    checkWithdrawal,
  );
  const disabled = !amount.trim() || !card || !allowed || (typed.ok && cardReady && !check.ready);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (disabled) return;
    const checked = amountField.check(CASH_CURRENCY);
    const problem = cardProblem(card);
    setCardError(problem ? t(`withdrawalPage.${problem}`) : null);
    if (!checked.ok || problem) return;
    setPending({
      amount: checked.amount,
      pan: card,
      send: startWithdrawal({ amount: checked.amount, pan: card }),
    });
    setOpen(true);
  }

  return (
    <div className="home-page money-page money-flow">
      <h1 className="home-page__title">{t('withdrawalPage.title')}</h1>
      <section className="panel money-flow__accounts" aria-label={t('withdrawalPage.accounts')}>
        {accounts.isPending ? (
          <AreaLoading rows={1} />
        ) : accounts.isError ? (
          <AreaError onRetry={() => accounts.refetch()} />
        ) : rubAccounts.length === 0 ? (
          <p className="area-state area-state--empty">{t('moneyFlow.noRubAccount')}</p>
        ) : (
          <AccountChoice accounts={rubAccounts} language={language} />
        )}
      </section>
      <section className="panel money-flow__panel" aria-labelledby="withdrawal-form-title">
        <h2 id="withdrawal-form-title" className="visually-hidden">
          {t('routes.WalletWithdrawal')}
        </h2>
        {authInfo.isSuccess && !allowed ? (
          // No form to fill in vain: why it is closed, and the identification that opens it, right here.
          <div className="money-flow__form">
            <MoneyNotice testId="withdrawal-unavailable">
              <p>{t('withdrawalPage.unavailable')}</p>
            </MoneyNotice>
            <IdentificationSection />
          </div>
        ) : (
          // One column for the way and its form, beside the aside (money-flow.css).
          <div className="money-flow__way">
            <WayChoice
              label={t('sbp.way')}
              value={way}
              onChange={setWay}
              ways={[
                { way: 'card', label: t('sbp.wayCard') },
                { way: 'sbp', label: t('sbp.waySbp') },
              ]}
            />
            {way === 'sbp' ? (
              <SbpForm />
            ) : (
              <form className="money-flow__form" onSubmit={submit} noValidate>
                <AmountField {...amountField.props} currency={CASH_CURRENCY} />
                <CardField
                  digits={card}
                  onChange={(next) => {
                    setCard(next);
                    setCardError(null);
                  }}
                  error={cardError}
                />
                <CheckProblems problems={check.problems} />
                <CheckNextSteps problems={check.problems} />
                <LimitMeter limits={check.answer?.limits} />
                <Button
                  type="submit"
                  block
                  disabled={disabled}
                  busy={check.checking && !check.problems.length}
                >
                  {t('withdrawalPage.submit')}
                </Button>
              </form>
            )}
          </div>
        )}
        <aside className="money-flow__aside">
          <p>{way === 'sbp' ? t('sbp.text') : t('withdrawalPage.text')}</p>
        </aside>
      </section>
      {pending && (
        <PayModal
          open={open}
          title={t('withdrawalPage.modalTitle')}
          summary={
            <PaySummary
              amount={pending.amount}
              currency={CASH_CURRENCY}
              to={t('withdrawalPage.toCard', { card: maskCard(pending.pan) })}
            />
          }
          send={pending.send}
          successText={t('withdrawalPage.success')}
          refreshReceipt={loadWithdrawalReceipt}
          onReceipt={() => void refreshAfterMoney(queryClient)}
          onClose={() => setOpen(false)}
          onDone={() => amountField.setValue('')}
        />
      )}
    </div>
  );
}

/**
 * The accounts money can leave from: RUB only (docs/product.md#business-constants-and-limits), chosen with a
 * radio.
 */
function AccountChoice({ accounts, language }: { accounts: WalletAccount[]; language: 'ru' | 'en' }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState(accounts[0]?.id);
  return (
    <fieldset className="account-choice">
      <legend className="visually-hidden">{t('withdrawalPage.accounts')}</legend>
      {accounts.map((account) => (
        <label key={account.id} className="account-choice__row">
          <input
            type="radio"
            name="withdrawal-account"
            className="account-choice__radio"
            checked={chosen === account.id}
            onChange={() => setChosen(account.id)}
          />
          <CurrencyBadge currency={account.currency_code} size={44} />
          <span className="account-choice__text">
            <span className="account-choice__name">
              {t('moneyFlow.accountFor', { currency: account.currency_code })}
            </span>
            <span className="account-choice__balance" data-testid="withdrawal-balance">
              {formatMoney(account.balance, account.currency_code, language)}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export default WithdrawalPage;
