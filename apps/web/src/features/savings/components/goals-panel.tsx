/**
 * Savings goals (docs/decisions/managing-money.md, 'Managing money'): each with its progress, the day it is reached at the
 * current pace, round-ups, deposits and withdrawals through the PIN modal, a regular deposit (a
 * schedule into the goal) and its history; and the form for a new one.
 */
import type { AccountCurrency } from '@e-wallet/contract/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorAnswer } from '../../../shared/api/api-error.ts';
import { formatDate, formatDateTime } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { changeSchedule, schedulesQuery } from '../../../shared/schedules/api.ts';
import {
  newTiming,
  type ScheduleTiming,
  ScheduleTimingFields,
} from '../../../shared/schedules/schedule-timing.tsx';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { FieldError, TextField } from '../../../shared/ui/text-field.tsx';
import {
  createGoal,
  deleteGoal,
  type Goal,
  goalQuery,
  goalsQuery,
  startGoalMove,
  startGoalPlan,
  updateGoal,
} from '../api/savings.ts';

import { Progress, problemOf } from './progress.tsx';

const ROUND_UPS = [0, 10, 50, 100] as const;

function GoalHistory({ goal }: { goal: Goal }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const detail = useQuery(goalQuery(goal.id));
  if (detail.isPending) return <AreaLoading rows={1} />;
  if (detail.isError) return <AreaError onRetry={() => detail.refetch()} />;
  if (detail.data.history.length === 0)
    return <p className="savings-goal__empty">{t('savings.noHistory')}</p>;
  return (
    <ul className="savings-history" aria-label={t('savings.history', { name: goal.name })}>
      {detail.data.history.map((movement) => (
        <li key={movement.id} className="savings-history__item">
          <span>{t(`savings.movement.${movement.kind}`)}</span>
          <span className="savings-history__date">{formatDate(movement.created_at, language)}</span>
          <span className={`savings-history__amount savings-history__amount--${movement.kind}`}>
            {movement.kind === 'withdrawal' ? '−' : '+'}
            {formatMoney(movement.amount, goal.currency_code, language)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * An amount for the goal, checked before the PIN modal opens: a deposit's, a withdrawal's and a regular
 * deposit's form (its schedule's fields as children).
 */
function GoalAmountForm({
  goal,
  label,
  className,
  labelledBy,
  autoFocus,
  children,
  onContinue,
  onCancel,
}: {
  goal: Goal;
  label: string;
  className: string;
  labelledBy?: string;
  autoFocus?: boolean;
  children?: ReactNode;
  onContinue: (amount: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkAmount(amount, goal.currency_code);
    if (checked.ok) onContinue(checked.amount);
    else setError(t(`moneyFlow.amountErrors.${checked.problem}`));
  }

  return (
    <form className={className} onSubmit={submit} noValidate aria-labelledby={labelledBy}>
      <AmountField
        label={label}
        value={amount}
        onChange={(next) => {
          setAmount(next);
          setError(null);
        }}
        currency={goal.currency_code}
        error={error}
        autoFocus={autoFocus}
      />
      {children}
      <div className="savings-goal__actions">
        <Button type="submit">{t('savings.continue')}</Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t('savings.cancel')}
        </Button>
      </div>
    </form>
  );
}

/**
 * 'Пополнять регулярно': the goal's standing order (docs/decisions/managing-money.md, 'Managing money'), or a form for
 * one.
 */
function GoalPlan({ goal }: { goal: Goal }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const titleId = useId();
  const schedules = useQuery(schedulesQuery());
  const plan = schedules.data?.results.find((one) => one.goal_id === goal.id && one.status !== 'ended');
  const [editing, setEditing] = useState(false);
  const [timing, setTiming] = useState<ScheduleTiming>(newTiming);
  // The checked amount the PIN modal confirms, while it is open.
  const [amount, setAmount] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['schedules'] });
  const every = (money: string, period: ScheduleTiming['period']) =>
    t('savings.plan.every', {
      amount: formatMoney(money, goal.currency_code, language),
      period: t(`schedules.${period}`).toLowerCase(),
    });

  async function stop(id: string) {
    setProblem(null);
    try {
      await changeSchedule(id, 'delete');
      // A new plan starts from an empty form.
      setEditing(false);
      setTiming(newTiming());
    } catch (error) {
      setProblem(problemOf(error, t('common.networkError')));
    }
    await refresh();
  }

  return (
    <section className="savings-plan" aria-labelledby={titleId}>
      <h4 id={titleId} className="savings-plan__title">
        {t('savings.plan.title')}
      </h4>
      {plan ? (
        <div className="savings-plan__current" data-testid="goal-plan">
          <p className="savings-plan__every">{every(plan.amount, plan.period)}</p>
          <p className="savings-goal__pace">
            {plan.next_run_at
              ? t('savings.plan.next', { date: formatDateTime(plan.next_run_at, language) })
              : t('savings.plan.paused')}
            {plan.last_run?.outcome === 'skipped' && ` · ${t('savings.plan.lastSkipped')}`}
          </p>
          <Button type="button" variant="secondary" onClick={() => void stop(plan.id)}>
            {t('savings.plan.stop')}
          </Button>
        </div>
      ) : editing ? (
        <GoalAmountForm
          goal={goal}
          label={t('savings.plan.amount')}
          className="savings-plan__form"
          labelledBy={titleId}
          onContinue={setAmount}
          onCancel={() => setEditing(false)}
        >
          <ScheduleTimingFields
            value={timing}
            onChange={setTiming}
            labels={{
              firstRun: t('savings.plan.firstRun'),
              endsAt: t('savings.plan.endsAt'),
              endsAtHint: t('savings.plan.endsAtHint'),
            }}
          />
        </GoalAmountForm>
      ) : (
        <div className="savings-plan__current">
          <p className="savings-goal__pace">{t('savings.plan.text')}</p>
          <Button type="button" variant="secondary" onClick={() => setEditing(true)}>
            {t('savings.plan.set')}
          </Button>
        </div>
      )}
      <FieldError message={problem} />
      {amount && (
        <PayModal
          open
          title={t('savings.plan.title')}
          summary={
            <PaySummary
              amount={amount}
              currency={goal.currency_code}
              to={`${goal.name} · ${t(`schedules.${timing.period}`).toLowerCase()}`}
            />
          }
          send={startGoalPlan(goal, amount, timing, t('savings.plan.created'))}
          successText={t('savings.plan.created')}
          onClose={() => {
            setAmount(null);
            void refresh();
          }}
        />
      )}
    </section>
  );
}

function GoalCard({ goal }: { goal: Goal }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const roundUpId = useId();
  const [direction, setDirection] = useState<'deposit' | 'withdraw' | null>(null);
  // The checked amount the PIN modal confirms, while it is open.
  const [amount, setAmount] = useState<string | null>(null);
  const [showHistory, setShowHistory] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const title = direction === 'withdraw' ? t('savings.withdrawTitle') : t('savings.depositTitle');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt per opening of the modal
  const send = useMemo(
    () => (direction && amount ? startGoalMove(goal, direction, amount, `${title}: ${goal.name}`) : null),
    [amount],
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['goals'] });

  return (
    <li className="savings-goal" data-testid="goal">
      <div className="savings-goal__head">
        <h3 className="savings-goal__name">{goal.name}</h3>
        <span className="savings-goal__percent">{goal.percent}%</span>
      </div>
      <Progress percent={goal.percent} label={t('savings.progress', { name: goal.name })} />
      <p className="savings-goal__figures" data-testid="goal-saved">
        {t('savings.savedOf', {
          saved: formatMoney(goal.saved, goal.currency_code, language),
          target: formatMoney(goal.target_amount, goal.currency_code, language),
        })}
      </p>
      <p className="savings-goal__pace">
        {goal.percent >= 100
          ? t('savings.reached')
          : goal.expected_date
            ? t('savings.expected', { date: formatDate(goal.expected_date, language) })
            : t('savings.noPace')}
        {goal.target_date &&
          ` · ${t('savings.targetDate', { date: formatDate(goal.target_date, language) })}`}
      </p>
      <div className="savings-goal__round">
        <label htmlFor={roundUpId} className="field__label">
          {t('savings.roundUp')}
        </label>
        <select
          id={roundUpId}
          className="field__input"
          value={goal.round_up}
          onChange={async (event) => {
            setProblem(null);
            try {
              await updateGoal(goal.id, { round_up: Number(event.target.value) as Goal['round_up'] });
              await refresh();
            } catch (error) {
              setProblem(problemOf(error, t('common.networkError')));
            }
          }}
        >
          {ROUND_UPS.map((step) => (
            <option key={step} value={step}>
              {step === 0
                ? t('savings.roundUpOff')
                : t('savings.roundUpTo', { amount: formatMoney(String(step), goal.currency_code, language) })}
            </option>
          ))}
        </select>
      </div>
      {direction ? (
        <GoalAmountForm
          goal={goal}
          label={title}
          className="savings-goal__move"
          autoFocus
          onContinue={setAmount}
          onCancel={() => setDirection(null)}
        />
      ) : (
        <div className="savings-goal__actions">
          <Button type="button" onClick={() => setDirection('deposit')}>
            {t('savings.deposit')}
          </Button>
          <Button type="button" variant="secondary" onClick={() => setDirection('withdraw')}>
            {t('savings.withdraw')}
          </Button>
          <Button
            type="button"
            variant="link"
            aria-expanded={showHistory}
            onClick={() => setShowHistory((s) => !s)}
          >
            {t('savings.historyButton')}
          </Button>
          <Button
            type="button"
            variant="link"
            onClick={async () => {
              if (!window.confirm(t('savings.deleteConfirm', { name: goal.name }))) return;
              setProblem(null);
              try {
                const answer = await deleteGoal(goal.id);
                if (isErrorAnswer(answer)) setProblem(answer.message);
                await refreshAfterMoney(queryClient);
                await refresh();
              } catch (error) {
                setProblem(problemOf(error, t('common.networkError')));
              }
            }}
          >
            {t('savings.delete')}
          </Button>
        </div>
      )}
      <FieldError message={problem} />
      <GoalPlan goal={goal} />
      {showHistory && <GoalHistory goal={goal} />}
      {send && amount && (
        <PayModal
          open
          title={title}
          summary={<PaySummary amount={amount} currency={goal.currency_code} to={goal.name} />}
          send={send}
          successText={direction === 'withdraw' ? t('savings.withdrawn') : t('savings.deposited')}
          onReceipt={() => {
            void refreshAfterMoney(queryClient);
            void refresh();
          }}
          onClose={() => {
            setDirection(null);
            setAmount(null);
          }}
        />
      )}
    </li>
  );
}

function NewGoal({ currencies }: { currencies: AccountCurrency[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [currency, setCurrency] = useState<AccountCurrency>(currencies[0] ?? 'RUB');
  const [date, setDate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkAmount(target, currency);
    if (!name.trim()) return setError(t('savings.nameRequired'));
    if (!checked.ok) return setError(t(`moneyFlow.amountErrors.${checked.problem}`));
    setBusy(true);
    setError(null);
    try {
      await createGoal({
        name: name.trim(),
        target_amount: checked.amount,
        currency_code: currency,
        ...(date ? { target_date: date } : {}),
      });
      setName('');
      setTarget('');
      setDate('');
      await queryClient.invalidateQueries({ queryKey: ['goals'] });
    } catch (failure) {
      setError(problemOf(failure, t('common.networkError')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="savings-form" onSubmit={submit} noValidate aria-label={t('savings.newGoal')}>
      <h3 className="savings-form__title">{t('savings.newGoal')}</h3>
      <TextField
        label={t('savings.goalName')}
        value={name}
        maxLength={60}
        onChange={(e) => setName(e.target.value)}
      />
      <AmountField label={t('savings.target')} value={target} onChange={setTarget} currency={currency} />
      <div className="savings-form__row">
        <SelectField
          label={t('savings.currency')}
          value={currency}
          onChange={setCurrency}
          options={currencies.map((code) => ({ value: code, label: code }))}
        />
        <TextField
          label={t('savings.targetDateLabel')}
          type="date"
          value={date}
          onChange={(e) => setDate(e.target.value)}
        />
      </div>
      <FieldError message={error} />
      <Button type="submit" block busy={busy}>
        {t('savings.create')}
      </Button>
    </form>
  );
}

export function GoalsPanel({ currencies }: { currencies: AccountCurrency[] }) {
  const { t } = useTranslation();
  const goals = useQuery(goalsQuery());
  return (
    <section className="panel" aria-labelledby="goals-title">
      <h2 id="goals-title" className="panel__title panel__title--spaced">
        {t('savings.goals')}
      </h2>
      <p className="savings-page__text">{t('savings.goalsText')}</p>
      {goals.isPending ? (
        <AreaLoading rows={2} />
      ) : goals.isError ? (
        <AreaError onRetry={() => goals.refetch()} />
      ) : (
        goals.data.results.length > 0 && (
          <ul className="savings-list">
            {goals.data.results.map((goal) => (
              <GoalCard key={goal.id} goal={goal} />
            ))}
          </ul>
        )
      )}
      {currencies.length > 0 && <NewGoal currencies={currencies} />}
    </section>
  );
}
