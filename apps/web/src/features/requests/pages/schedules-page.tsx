/**
 * Scheduled transfers
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers): the person's
 * schedules with their next run, the last run's outcome, and pause / resume / delete (a goal's regular
 * deposit among them, named by its goal,
 * docs/decisions/managing-money.md#managing-money-categories-budgets-goals); a form for a new one (phone,
 * amount, every week or month, the first run's date and time, the PIN that confirms it).
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import '../requests.css';
import type { AccountCurrency } from '@e-wallet/contract/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-error.ts';
import { useAccounts } from '../../../shared/api/wallet.ts';
import { formatDateTime } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { formatPhone } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { isMaskComplete, toE164 } from '../../../shared/phone/masks.ts';
import { useRecipientPhone } from '../../../shared/phone/own-country.ts';
import { changeSchedule, createSchedule, schedulesQuery } from '../../../shared/schedules/api.ts';
import {
  newTiming,
  type ScheduleTiming,
  ScheduleTimingFields,
  timingBody,
} from '../../../shared/schedules/schedule-timing.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { CodeInput } from '../../../shared/ui/code-input.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { PhoneField } from '../../../shared/ui/phone-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { FieldError } from '../../../shared/ui/text-field.tsx';

export function SchedulesPage() {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const schedules = useQuery(schedulesQuery());
  const [phone, setPhone] = useRecipientPhone();
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [timing, setTiming] = useState<ScheduleTiming>(newTiming);
  const accounts = useAccounts();
  const [currencyChoice, setCurrency] = useState<AccountCurrency | null>(null);
  const currency: AccountCurrency =
    currencyChoice ?? (accounts.data?.[0]?.currency_code as AccountCurrency | undefined) ?? 'RUB';
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['schedules'] });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNote(null);
    const checked = checkAmount(amount, currency);
    if (!checked.ok) {
      setAmountError(t(`moneyFlow.amountErrors.${checked.problem}`));
      return;
    }
    const mask = phone.country.mask[phone.maskIndex] ?? phone.country.mask[0]!;
    if (!isMaskComplete(phone.digits, mask)) {
      setError(t('validation.phoneIncomplete'));
      return;
    }
    setBusy(true);
    try {
      await createSchedule({
        phone: toE164(phone.country.code, phone.digits),
        amount: checked.amount,
        currency_code: currency,
        ...timingBody(timing),
        pin,
      });
      setNote(t('schedules.created'));
      setAmount('');
      setTiming((before) => ({ ...before, endsAt: '' }));
      setPin('');
      await refresh();
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.answer ? failure.answer.message : t('common.networkError'),
      );
    } finally {
      setBusy(false);
    }
  }

  async function change(id: string, to: 'pause' | 'resume' | 'delete') {
    try {
      await changeSchedule(id, to);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.answer ? failure.answer.message : t('common.networkError'),
      );
    }
    await refresh();
  }

  return (
    <div className="home-page money-page money-flow">
      <h1 className="home-page__title">{t('schedules.title')}</h1>
      <section className="panel requests-panel" aria-labelledby="schedules-list-title">
        <h2 id="schedules-list-title" className="panel__title">
          {t('schedules.listTitle')}
        </h2>
        {schedules.data && schedules.data.results.length === 0 && <p>{t('schedules.empty')}</p>}
        <ul className="requests-list" data-testid="schedules">
          {schedules.data?.results.map((schedule) => (
            <li key={schedule.id} className="requests-list__item" data-testid="schedule">
              <span className="requests-list__text">
                <span className="requests-list__amount">
                  {t('schedules.every', {
                    amount: formatMoney(schedule.amount, schedule.currency_code, language),
                    period: t(`schedules.${schedule.period}`).toLowerCase(),
                    name: schedule.goal_id
                      ? t('schedules.goal', { name: schedule.recipient })
                      : named(schedule.recipient),
                  })}
                </span>
                {schedule.phone && <span>{formatPhone(schedule.phone)}</span>}
                <span className="requests-list__date" data-testid="schedule-status">
                  {t(`schedules.status.${schedule.status}`)}
                  {schedule.next_run_at &&
                    ` · ${t('schedules.next', { date: formatDateTime(schedule.next_run_at, language) })}`}
                </span>
                {schedule.last_run && (
                  <span className="requests-list__date">
                    {schedule.last_run.outcome === 'skipped'
                      ? t('schedules.lastSkipped')
                      : schedule.last_run.outcome === 'held'
                        ? t('schedules.lastHeld')
                        : t('schedules.lastPaid', { date: formatDateTime(schedule.last_run.at, language) })}
                  </span>
                )}
              </span>
              <span className="requests-list__actions">
                {schedule.status === 'active' && (
                  <Button type="button" variant="secondary" onClick={() => void change(schedule.id, 'pause')}>
                    {t('schedules.pause')}
                  </Button>
                )}
                {schedule.status === 'paused' && (
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={() => void change(schedule.id, 'resume')}
                  >
                    {t('schedules.resume')}
                  </Button>
                )}
                <Button type="button" variant="ghost" onClick={() => void change(schedule.id, 'delete')}>
                  {t('schedules.delete')}
                </Button>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section className="panel money-flow__panel" aria-labelledby="schedule-form-title">
        <h2 id="schedule-form-title" className="panel__title">
          {t('schedules.create')}
        </h2>
        <form className="money-flow__form" onSubmit={submit} noValidate>
          <PhoneField label={t('schedules.phone')} value={phone} onChange={setPhone} language={language} />
          <AmountField
            value={amount}
            onChange={(next) => {
              setAmount(next);
              setAmountError(null);
            }}
            currency={currency}
            error={amountError}
          />
          {(accounts.data?.length ?? 0) > 1 && (
            <SelectField
              label={t('scheduleForm.currency')}
              value={currency}
              onChange={(next) => setCurrency(next as AccountCurrency)}
              options={(accounts.data ?? []).map((account) => ({
                value: account.currency_code,
                label: account.currency_code,
              }))}
            />
          )}
          <ScheduleTimingFields
            value={timing}
            onChange={setTiming}
            labels={{
              firstRun: t('schedules.firstRun'),
              endsAt: t('scheduleForm.endsAt'),
              endsAtHint: t('scheduleForm.endsAtHint'),
            }}
          />
          <CodeInput
            value={pin}
            onChange={setPin}
            label={t('schedules.pin')}
            digitLabel={(n, total) => t('settings.pin.digit', { n, total })}
            secret
          />
          <FieldError message={error} />
          {note && <p role="status">{note}</p>}
          <Button type="submit" block busy={busy} disabled={pin.length !== 4}>
            {t('schedules.submit')}
          </Button>
        </form>
        <aside className="money-flow__aside">
          <p>{t('schedules.text')}</p>
        </aside>
      </section>
    </div>
  );
}

export default SchedulesPage;
