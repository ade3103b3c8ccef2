/**
 * 'Разделить' (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): an amount (a past
 * operation's, when opened from the history) divided among chosen phones, equally through the split request
 * (one share per phone, the remainder to the first shares; 'Включая меня', the default, counts the
 * requester's own share, never asked) or by amounts typed for each (one request per phone). Who has paid
 * shows in the outgoing requests below the form.
 */
import '../../../shared/ui/toggle-group.css';
import './split-form.css';
import { type CurrencyCode, formatAmount } from '@e-wallet/contract/money';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isErrorAnswer } from '../../../shared/api/api-error.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { isMaskComplete, toE164 } from '../../../shared/phone/masks.ts';
import { useOwnCountry } from '../../../shared/phone/own-country.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { initialPhoneValue, PhoneField, type PhoneValue } from '../../../shared/ui/phone-field.tsx';
import { FieldError, TextField } from '../../../shared/ui/text-field.tsx';
import { createRequest } from '../api/requests.ts';

interface Share {
  /** A stable key for the list while people are added and removed. */
  key: number;
  phone: PhoneValue;
  amount: string;
}

let nextKey = 0;

const MAX_PEOPLE = 20;

export function SplitForm({ initialAmount, currency }: { initialAmount: string; currency: CurrencyCode }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const country = useOwnCountry();
  const blank = (): Share => ({ key: nextKey++, phone: initialPhoneValue(country), amount: '' });
  const [amount, setAmount] = useState(initialAmount);
  const [byAmounts, setByAmounts] = useState(false);
  // 'Me and two friends' is how people split a bill: the requester's share is theirs, never asked.
  const [includeMe, setIncludeMe] = useState(true);
  const counted = !byAmounts && includeMe;
  const [shares, setShares] = useState<Share[]>(() => [blank(), blank()]);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  // The person's own country arrives after the first render: empty phones follow it (a +7 wallet
  // splits among +7 phones in English too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the country's code only
  useEffect(() => {
    setShares((all) =>
      all.map((share) => (share.phone.digits ? share : { ...share, phone: initialPhoneValue(country) })),
    );
  }, [country.code]);

  const complete = (share: Share) =>
    isMaskComplete(
      share.phone.digits,
      share.phone.country.mask[share.phone.maskIndex] ?? share.phone.country.mask[0]!,
    );
  const update = (index: number, next: Partial<Share>) =>
    setShares((all) => all.map((share, i) => (i === index ? { ...share, ...next } : share)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(null);
    if (!shares.every(complete)) return setError(t('split.phonesIncomplete'));
    const phones = shares.map((share) => toE164(share.phone.country.code, share.phone.digits));
    if (new Set(phones).size !== phones.length) return setError(t('split.phonesRepeated'));
    const note = comment.trim() ? { comment: comment.trim() } : {};
    setBusy(true);
    try {
      if (byAmounts) {
        const amounts = shares.map((share) => checkAmount(share.amount, currency));
        const bad = amounts.find((checked) => !checked.ok);
        if (bad && !bad.ok) return setError(t(`moneyFlow.amountErrors.${bad.problem}`));
        for (const [index, phone] of phones.entries()) {
          const checked = amounts[index]!;
          if (!checked.ok) continue;
          const answer = await createRequest({
            amount: checked.amount,
            currency_code: currency,
            phone,
            ...note,
          });
          if (isErrorAnswer(answer)) return setError(answer.message);
        }
      } else {
        const checked = checkAmount(amount, currency);
        if (!checked.ok) return setError(t(`moneyFlow.amountErrors.${checked.problem}`));
        const answer = await createRequest({
          amount: checked.amount,
          currency_code: currency,
          phones,
          ...(counted ? { include_me: true } : {}),
          ...note,
        });
        if (isErrorAnswer(answer)) return setError(answer.message);
      }
      setDone(t('split.sent', { count: phones.length }));
      setShares([blank(), blank()]);
      await queryClient.invalidateQueries({ queryKey: ['requests'] });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.answer ? failure.answer.message : t('common.networkError'),
      );
    } finally {
      setBusy(false);
    }
  }

  const checkedTotal = checkAmount(amount, currency);
  const parts = BigInt(shares.length + (counted ? 1 : 0));
  // As the server splits: whole minor units, the remainder to the first share (the requester's, when counted).
  const each =
    !byAmounts && checkedTotal.ok && shares.length > 0
      ? formatMoney(formatAmount(checkedTotal.minor / parts, currency), currency, language)
      : null;
  const mine =
    counted && checkedTotal.ok
      ? formatMoney(
          formatAmount(checkedTotal.minor - (checkedTotal.minor / parts) * BigInt(shares.length), currency),
          currency,
          language,
        )
      : null;
  const fewest = counted ? 1 : 2;

  return (
    <form className="money-flow__form split-form" onSubmit={submit} noValidate aria-label={t('split.title')}>
      <fieldset className="toggle-group">
        <legend className="visually-hidden">{t('split.how')}</legend>
        <button
          type="button"
          className="toggle-group__option"
          aria-pressed={!byAmounts}
          onClick={() => setByAmounts(false)}
        >
          {t('split.equal')}
        </button>
        <button
          type="button"
          className="toggle-group__option"
          aria-pressed={byAmounts}
          onClick={() => setByAmounts(true)}
        >
          {t('split.byAmounts')}
        </button>
      </fieldset>
      {!byAmounts && (
        <>
          <AmountField label={t('split.total')} value={amount} onChange={setAmount} currency={currency} />
          <label className="split-form__me">
            <input
              type="checkbox"
              checked={includeMe}
              onChange={(event) => setIncludeMe(event.target.checked)}
            />
            <span>{t('split.includeMe')}</span>
          </label>
        </>
      )}
      <ol className="split-form__people">
        {shares.map((share, index) => (
          <li key={share.key} className="split-form__person">
            <PhoneField
              label={t('split.phone', { n: index + 1 })}
              value={share.phone}
              onChange={(phone) => update(index, { phone })}
              language={language}
            />
            {byAmounts && (
              <AmountField
                label={t('split.amountOf', { n: index + 1 })}
                value={share.amount}
                onChange={(next) => update(index, { amount: next })}
                currency={currency}
              />
            )}
            {shares.length > fewest && (
              <Button
                type="button"
                variant="link"
                onClick={() => setShares((all) => all.filter((_s, i) => i !== index))}
              >
                {t('split.remove', { n: index + 1 })}
              </Button>
            )}
          </li>
        ))}
      </ol>
      {shares.length < MAX_PEOPLE && (
        <Button type="button" variant="secondary" onClick={() => setShares((all) => [...all, blank()])}>
          {t('split.add')}
        </Button>
      )}
      {each && (
        <p className="money-flow__status" data-testid="split-each">
          {t(counted ? 'split.eachFriend' : 'split.each', { amount: each })}
          {mine && ` ${t('split.mine', { amount: mine })}`}
        </p>
      )}
      <TextField
        label={t('requests.comment')}
        value={comment}
        maxLength={140}
        onChange={(e) => setComment(e.target.value)}
      />
      <FieldError message={error} />
      {done && (
        <p className="money-flow__status" role="status">
          {done}
        </p>
      )}
      <Button type="submit" block busy={busy}>
        {t('split.submit')}
      </Button>
    </form>
  );
}
