/**
 * Wallet save: a transfer to another wallet user (docs/product.md 'Wallet save',
 * docs/decisions/placeholders-and-defects.md#placeholders-become-real-features): the account to send from
 * (carousel), the amount, the recipient's phone with the recipient found (a masked name such as 'Иван П.') or
 * the server's reason, and 'Перевести' opening the PIN modal.
 * Balances refresh after a transfer. Without the right (is_transfer_allowed) the screen says so.
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import { amountForInput, type CurrencyCode } from '@e-wallet/contract/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { useAccounts } from '../../../shared/api/wallet.ts';
import { formatPhone } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { phoneValueOf } from '../../../shared/phone/from-e164.ts';
import { isMaskComplete, toE164 } from '../../../shared/phone/masks.ts';
import { useRecipientPhone } from '../../../shared/phone/own-country.ts';
import { pathTo } from '../../../shared/routes.ts';
import { SbpForm, type SbpPayee, WayChoice } from '../../../shared/sbp/sbp-form.tsx';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField, useAmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import {
  CheckNextSteps,
  CheckProblems,
  LimitMeter,
  useMoneyCheck,
} from '../../../shared/ui/pay-modal/money-check.tsx';
import { UnavailableNotice } from '../../../shared/ui/pay-modal/notice.tsx';
import { type Confirmation, PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import type { PayOutcome } from '../../../shared/ui/pay-modal/pay-outcome.ts';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { PhoneField } from '../../../shared/ui/phone-field.tsx';
import { WalletCarousel } from '../../../shared/ui/wallet-carousel.tsx';
import { repeatQuery } from '../api/payees.ts';
import { recipientQuery, startTransfer } from '../api/transfer.ts';
import { checkTransfer } from '../api/transfer-check.ts';
import { type PayeeChoice, PayeesRow } from '../components/payees-row.tsx';
import { RecipientCard } from '../components/recipient-card.tsx';
import { SaveTemplateDialog } from '../components/save-template-dialog.tsx';

interface Pending {
  amount: string;
  currency: CurrencyCode;
  to: string;
  send: (confirmation: Confirmation) => Promise<PayOutcome>;
}

export function TransferPage() {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const authInfo = useAuthInfo();
  const accounts = useAccounts();
  const [accountId, setAccountId] = useState<string | null>(null);
  const amountField = useAmountField();
  const amount = amountField.value;
  const [phone, setPhone] = useRecipientPhone();
  const [pending, setPending] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const [savingTemplate, setSavingTemplate] = useState(false);
  // To a wallet user, or by СБП to any bank (docs/decisions/sbp.md#sending-by-sbp).
  const [way, setWay] = useState<'wallet' | 'sbp'>('wallet');
  // A saved СБП payee or a repeated СБП transfer fills the СБП form; one to save opens the dialog.
  const [sbpPreset, setSbpPreset] = useState<SbpPayee | null>(null);
  const [savingSbp, setSavingSbp] = useState<SbpPayee | null>(null);
  // 'Повторить' in the history opens this screen with ?repeat=<operation>: the form is filled, the PIN still asked.
  const [search] = useSearchParams();
  const repeat = useQuery(repeatQuery(search.get('repeat')));

  function choose(choice: PayeeChoice) {
    if (choice.bank) {
      setWay('sbp');
      setSbpPreset({ phone: choice.phone, bank: choice.bank, amount: choice.amount });
      return;
    }
    setWay('wallet');
    void phoneValueOf(choice.phone, language).then((value) => {
      if (value) setPhone(value);
    });
    if (choice.amount) amountField.setValue(amountForInput(choice.amount, language));
    amountField.setError(null);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: filled once, when the repeated operation arrives
  useEffect(() => {
    if (repeat.data) choose({ phone: repeat.data.phone, amount: repeat.data.amount, bank: repeat.data.bank });
  }, [repeat.data]);

  const account = accounts.data?.find((item) => item.id === accountId) ?? accounts.data?.[0] ?? null;
  const mask = phone.country.mask[phone.maskIndex] ?? phone.country.mask[0]!;
  const complete = isMaskComplete(phone.digits, mask);
  const e164 = complete ? toE164(phone.country.code, phone.digits) : null;
  const recipient = useQuery(recipientQuery(e164));
  const recipientError = recipient.isError
    ? recipient.error instanceof ApiError && recipient.error.answer
      ? recipient.error.answer.message
      : t('common.networkError')
    : null;
  const allowed = authInfo.data?.is_transfer_allowed ?? false;
  const found = complete && recipient.isSuccess ? recipient.data : null;
  const typed = account ? checkAmount(amount, account.currency_code) : null;
  // The check asks once the amount reads and the recipient is found; its problems show as they come.
  const check = useMoneyCheck(
    'transfer',
    typed?.ok && found && account
      ? { phone: found.phone, amount: typed.amount, currency_code: account.currency_code }
      : null,
    checkTransfer,
  );
  const disabled = !allowed || !account || !amount.trim() || !found || (typed?.ok === true && !check.ready);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (disabled || !account || !found) return;
    const currency = account.currency_code;
    const checked = amountField.check(currency);
    if (!checked.ok) return;
    setPending({
      amount: checked.amount,
      currency,
      to: t('transferPage.toRecipient', { name: named(found.name), phone: formatPhone(found.phone) }),
      send: startTransfer({ phone: found.phone, amount: checked.amount, currency }),
    });
    setOpen(true);
  }

  return (
    <div className="home-page money-page money-flow">
      <h1 className="home-page__title">{t('transferPage.title')}</h1>
      {accounts.isPending ? (
        <AreaLoading rows={1} />
      ) : accounts.isError ? (
        <AreaError onRetry={() => accounts.refetch()} />
      ) : (
        <WalletCarousel
          accounts={accounts.data}
          label={t('transferPage.carousel')}
          selectedId={account?.id}
          onSelect={(next) => {
            setAccountId(next.id);
            amountField.setError(null);
          }}
        />
      )}
      <div className="transfer-links">
        <Link className="row-action row-action--large" to={pathTo('WalletRequest')}>
          {t('requests.ask')}
        </Link>
        <Link className="row-action row-action--large" to={pathTo('Schedules')}>
          {t('schedules.link')}
        </Link>
      </div>
      <section className="panel money-flow__panel" aria-labelledby="transfer-form-title">
        <h2 id="transfer-form-title" className="visually-hidden">
          {t('transferPage.title')}
        </h2>
        {authInfo.isSuccess && !allowed && (
          <UnavailableNotice testId="transfer-unavailable" text={t('transferPage.unavailable')} />
        )}
        {/* One column for the payees, the way and its form, beside the aside (money-flow.css). */}
        <div className="money-flow__way">
          <PayeesRow onChoose={choose} />
          <WayChoice
            label={t('sbp.way')}
            value={way}
            onChange={setWay}
            ways={[
              { way: 'wallet', label: t('sbp.wayWallet') },
              { way: 'sbp', label: t('sbp.waySbp') },
            ]}
          />
          {way === 'sbp' ? (
            <SbpForm preset={sbpPreset} onSave={setSavingSbp} />
          ) : (
            <form className="money-flow__form" onSubmit={submit} noValidate>
              <AmountField
                {...amountField.props}
                currency={account?.currency_code ?? 'RUB'}
                hint={account ? t('moneyFlow.accountFor', { currency: account.currency_code }) : undefined}
              />
              <PhoneField
                label={t('transferPage.recipient')}
                value={phone}
                onChange={setPhone}
                language={language}
                hint={t('transferPage.recipientHint')}
                error={complete ? recipientError : null}
              />
              <div className="money-flow__recipient" aria-live="polite">
                {complete && recipient.isFetching && !found && (
                  <p className="money-flow__status">{t('transferPage.searching')}</p>
                )}
                {found && <RecipientCard name={found.name} phone={found.phone} />}
              </div>
              {found && account && (
                <button
                  type="button"
                  className="row-action row-action--large"
                  aria-haspopup="dialog"
                  onClick={() => setSavingTemplate(true)}
                >
                  {t('templates.save')}
                </button>
              )}
              <CheckProblems problems={check.problems} />
              <CheckNextSteps problems={check.problems} />
              <LimitMeter limits={check.answer?.limits} />
              <Button type="submit" block disabled={disabled} busy={check.checking && !check.problems.length}>
                {t('transferPage.submit')}
              </Button>
            </form>
          )}
        </div>
        <aside className="money-flow__aside">
          <p>{way === 'sbp' ? t('sbp.text') : t('transferPage.text')}</p>
        </aside>
      </section>
      {/* Outside the transfer's form: its own form's submit must not reach the transfer's. */}
      {savingTemplate && found && account && (
        <SaveTemplateDialog
          onClose={() => setSavingTemplate(false)}
          recipient={found}
          currency={account.currency_code}
          amount={typed?.ok ? typed.amount : null}
        />
      )}
      {savingSbp && (
        <SaveTemplateDialog
          onClose={() => setSavingSbp(null)}
          recipient={{
            name: `${savingSbp.bank.name}, ${formatPhone(savingSbp.phone)}`,
            phone: savingSbp.phone,
          }}
          bank={savingSbp.bank}
          currency="RUB"
          amount={savingSbp.amount}
        />
      )}
      {pending && (
        <PayModal
          open={open}
          title={t('transferPage.modalTitle')}
          summary={<PaySummary amount={pending.amount} currency={pending.currency} to={pending.to} />}
          send={pending.send}
          successText={t('transferPage.success')}
          onReceipt={() => void refreshAfterMoney(queryClient)}
          onClose={() => setOpen(false)}
          onDone={() => amountField.setValue('')}
        />
      )}
    </div>
  );
}

export default TransferPage;
