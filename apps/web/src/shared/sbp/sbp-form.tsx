/**
 * Sending by СБП (docs/decisions/sbp.md#sending-by-sbp), offered on the transfer and withdrawal screens: the
 * amount, the phone (or 'to my account in another bank', one's own phone), the bank, then the check before
 * the PIN names the bank and the recipient's masked name; 'Перевести по СБП' opens the pay modal whose
 * summary repeats them, and the receipt is followed until the payout settles or the money returns.
 * The fee, when one is configured, is the check's answer (docs/decisions/sbp.md#fees), shown before the PIN.
 * A saved payee or 'Повторить' fills the form (`preset`); 'Сохранить получателя' asks the screen (`onSave`).
 */
import './sbp.css';
import '../ui/toggle-group.css';
import '../ui/pay-modal/money-flow.css';
import { amountForInput, CASH_CURRENCY, formatAmount, parseAmount } from '@e-wallet/contract/money';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../api/auth-info.ts';
import { formatMoney } from '../format/money.ts';
import { formatPhone } from '../format/person.ts';
import { useName } from '../format/person-name.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { phoneValueOf } from '../phone/from-e164.ts';
import { isMaskComplete, toE164 } from '../phone/masks.ts';
import { useRecipientPhone } from '../phone/own-country.ts';
import { Button } from '../ui/button.tsx';
import { checkAmount } from '../ui/pay-modal/amount.ts';
import { AmountField, useAmountField } from '../ui/pay-modal/amount-field.tsx';
import { CheckNextSteps, CheckProblems, LimitMeter, useMoneyCheck } from '../ui/pay-modal/money-check.tsx';
import type { Confirmation } from '../ui/pay-modal/pay-modal.tsx';
import { PayModal, PaySummary } from '../ui/pay-modal/pay-modal.tsx';
import type { PayOutcome } from '../ui/pay-modal/pay-outcome.ts';
import { refreshAfterMoney } from '../ui/pay-modal/refresh.ts';
import { PhoneField } from '../ui/phone-field.tsx';
import { TextField } from '../ui/text-field.tsx';
import { BankPicker } from './bank-picker.tsx';
import { checkSbp, loadSbpReceipt, type SbpBank, type SbpCheckAnswer, startSbpTransfer } from './sbp-api.ts';

interface Pending {
  amount: string;
  to: string;
  note?: string;
  send: (confirmation: Confirmation) => Promise<PayOutcome>;
}

/** Where a saved СБП payee or a repeated transfer goes: the form is filled, the PIN still asked. */
export interface SbpPayee {
  phone: string;
  bank: SbpBank;
  amount: string | null;
}

/** The fee's line under the form: none, or the fee and what leaves in all (wire amounts, in roubles). */
function feeText(t: TFunction, amount: string, fee: string) {
  const language = currentLanguage();
  const minor = (value: string) => {
    const parsed = parseAmount(value, CASH_CURRENCY);
    return parsed.ok ? parsed.minor : 0n;
  };
  if (minor(fee) === 0n) return t('sbp.noFee');
  const total = formatAmount(minor(amount) + minor(fee), CASH_CURRENCY);
  return t('sbp.fee', {
    fee: formatMoney(fee, CASH_CURRENCY, language),
    total: formatMoney(total, CASH_CURRENCY, language),
  });
}

export function SbpForm({
  preset = null,
  onSave,
}: {
  preset?: SbpPayee | null;
  onSave?: (payee: SbpPayee) => void;
} = {}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const authInfo = useAuthInfo();
  const amountField = useAmountField();
  const [phone, setPhone] = useRecipientPhone();
  const [own, setOwn] = useState(false);
  const [bank, setBank] = useState<SbpBank | null>(null);
  const [comment, setComment] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: filled once per payee chosen
  useEffect(() => {
    if (!preset) return;
    setOwn(false);
    setBank(preset.bank);
    void phoneValueOf(preset.phone, language).then((value) => {
      if (value) setPhone(value);
    });
    if (preset.amount) amountField.setValue(amountForInput(preset.amount, language));
    amountField.setError(null);
  }, [preset]);

  const mask = phone.country.mask[phone.maskIndex] ?? phone.country.mask[0]!;
  const typedPhone = isMaskComplete(phone.digits, mask) ? toE164(phone.country.code, phone.digits) : null;
  const e164 = own ? (authInfo.data?.phone ?? null) : typedPhone;
  const typed = checkAmount(amountField.value, CASH_CURRENCY);
  const check = useMoneyCheck(
    'sbp',
    typed.ok && e164 && bank
      ? { phone: e164, bank_id: bank.id, amount: typed.amount, ...(own ? { own: true } : {}) }
      : null,
    checkSbp,
  );
  const answer = check.answer as SbpCheckAnswer | null;
  // In Latin letters on an English screen (docs/decisions/language-and-format.md#names-on-english-screens).
  const named = useName();
  const name = check.ready && answer?.recipient_name ? named(answer.recipient_name) : null;
  const fee = check.ready && typed.ok ? (answer?.fee ?? null) : null;
  const disabled = !e164 || !bank || !amountField.value.trim() || (typed.ok && !check.ready);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (disabled || !e164 || !bank) return;
    const checked = amountField.check(CASH_CURRENCY);
    if (!checked.ok) return;
    const shown = formatPhone(e164);
    setPending({
      amount: checked.amount,
      to: name
        ? t('sbp.toNamed', { name, bank: bank.name, phone: shown })
        : t('sbp.to', { bank: bank.name, phone: shown }),
      // The fee, when there is one, is said again beside the PIN.
      ...(fee && fee !== '0.00' ? { note: feeText(t, checked.amount, fee) } : {}),
      send: startSbpTransfer({
        phone: e164,
        bank_id: bank.id,
        amount: checked.amount,
        ...(own ? { own: true } : {}),
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      }),
    });
    setOpen(true);
  }

  return (
    <>
      <form className="money-flow__form" onSubmit={submit} noValidate data-testid="sbp-form">
        <AmountField {...amountField.props} currency={CASH_CURRENCY} />
        <label className="sbp-own">
          <input type="checkbox" checked={own} onChange={(event) => setOwn(event.target.checked)} />
          {t('sbp.own')}
        </label>
        {own ? (
          <p className="field__hint">{t('sbp.ownHint', { phone: e164 ? formatPhone(e164) : '' })}</p>
        ) : (
          <PhoneField
            label={t('sbp.phone')}
            value={phone}
            onChange={setPhone}
            language={language}
            hint={t('sbp.phoneHint')}
          />
        )}
        <BankPicker value={bank} onChange={setBank} />
        <TextField
          label={t('sbp.comment')}
          value={comment}
          maxLength={140}
          onChange={(event) => setComment(event.target.value)}
        />
        <div className="money-flow__recipient" aria-live="polite">
          {name && bank && e164 && (
            <div className="recipient-card" data-testid="sbp-recipient">
              <span className="recipient-card__avatar" aria-hidden="true">
                {[...name][0]}
              </span>
              <span className="recipient-card__text">
                <span className="recipient-card__label">{t('sbp.recipient', { bank: bank.name })}</span>
                <span className="recipient-card__name">{name}</span>
                <span className="recipient-card__phone">{formatPhone(e164)}</span>
              </span>
            </div>
          )}
        </div>
        <p className="field__hint" data-testid="sbp-fee" aria-live="polite">
          {fee && typed.ok ? feeText(t, typed.amount, fee) : t('sbp.noFee')}
        </p>
        {onSave && e164 && bank && !own && (
          <button
            type="button"
            className="row-action row-action--large"
            aria-haspopup="dialog"
            onClick={() => onSave({ phone: e164, bank, amount: typed.ok ? typed.amount : null })}
          >
            {t('sbp.save')}
          </button>
        )}
        <CheckProblems problems={check.problems} />
        <CheckNextSteps problems={check.problems} />
        <LimitMeter limits={check.answer?.limits} />
        <Button type="submit" block disabled={disabled} busy={check.checking && !check.problems.length}>
          {t('sbp.submit')}
        </Button>
      </form>
      {pending && (
        <PayModal
          open={open}
          title={t('sbp.modalTitle')}
          summary={
            <PaySummary
              amount={pending.amount}
              currency={CASH_CURRENCY}
              to={pending.to}
              note={pending.note}
            />
          }
          send={pending.send}
          successText={t('sbp.success')}
          refreshReceipt={loadSbpReceipt}
          onReceipt={() => void refreshAfterMoney(queryClient)}
          onClose={() => setOpen(false)}
          onDone={() => amountField.setValue('')}
        />
      )}
    </>
  );
}

/** The choice between a screen's own way and СБП: two pressed buttons, as the other toggles are. */
export function WayChoice<W extends string>({
  ways,
  value,
  onChange,
  label,
}: {
  ways: ReadonlyArray<{ way: W; label: string }>;
  value: W;
  onChange: (way: W) => void;
  label: string;
}) {
  return (
    <fieldset className="toggle-group">
      <legend className="visually-hidden">{label}</legend>
      {ways.map((item) => (
        <button
          key={item.way}
          type="button"
          className="toggle-group__option"
          aria-pressed={value === item.way}
          onClick={() => onChange(item.way)}
        >
          {item.label}
        </button>
      ))}
    </fieldset>
  );
}
