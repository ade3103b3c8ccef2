/**
 * Savings goals and budgets (docs/decisions/managing-money.md#managing-money-categories-budgets-goals):
 * GET/POST /v2/wallet/goals, GET/PATCH/DELETE
 * /v2/wallet/goals/:id, the deposit and withdrawal as money calls (the pay modal's PIN or passkey, one
 * Idempotency-Key per attempt), a regular deposit as a schedule into the goal, and GET/PUT/DELETE
 * /v2/wallet/budgets.
 */
import type { AnswerOf, BodyOf } from '@e-wallet/contract';
import type { AccountCurrency } from '@e-wallet/contract/money';
import { queryOptions } from '@tanstack/react-query';
import { isErrorAnswer } from '../../../shared/api/api-error.ts';
import { callOk } from '../../../shared/api/client.ts';
import { startMoneyAttempt } from '../../../shared/api/money-call.ts';
import { createSchedule } from '../../../shared/schedules/api.ts';
import { type ScheduleTiming, timingBody } from '../../../shared/schedules/schedule-timing.tsx';
import type { Confirmation } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { type PayOutcome, payOutcomeOf } from '../../../shared/ui/pay-modal/pay-outcome.ts';

export type Goal = AnswerOf<'goals'>['results'][number];
export type GoalDetail = AnswerOf<'goal'>;
export type Budget = AnswerOf<'budgets'>['results'][number];

export const goalsQuery = () =>
  queryOptions({ queryKey: ['goals'], queryFn: ({ signal }) => callOk('goals', { signal }) });
export const goalQuery = (id: string) =>
  queryOptions({
    queryKey: ['goals', id],
    queryFn: ({ signal }) => callOk('goal', { signal, params: { id } }),
  });
export const budgetsQuery = () =>
  queryOptions({ queryKey: ['budgets'], queryFn: ({ signal }) => callOk('budgets', { signal }) });

export const createGoal = (body: BodyOf<'goalCreate'>) => callOk('goalCreate', { body });
export const updateGoal = (id: string, body: BodyOf<'goalUpdate'>) =>
  callOk('goalUpdate', { params: { id }, body });
export const deleteGoal = (id: string) => startMoneyAttempt('goalDelete').send({ params: { id } });
export const putBudget = (body: BodyOf<'budgetPut'>) => callOk('budgetPut', { body });
export const deleteBudget = (category: string | null) =>
  callOk('budgetDelete', { query: category ? { category } : {} });

/** One opening of the PIN modal is one attempt: every confirmation in it carries the same key. */
export function startGoalMove(
  goal: Goal,
  direction: 'deposit' | 'withdraw',
  amount: string,
  description: string,
): (confirmation: Confirmation) => Promise<PayOutcome> {
  const attempt = startMoneyAttempt(direction === 'deposit' ? 'goalDeposit' : 'goalWithdraw');
  return (confirmation) =>
    payOutcomeOf(
      attempt.send({ params: { id: goal.id }, body: { amount, ...confirmation } }).then((answer) => {
        if (isErrorAnswer(answer)) return answer;
        return {
          status: 'success' as const,
          message: answer.message,
          receipt: {
            id: answer.movement_id,
            kind: 'transfer' as const,
            status: 'complete' as const,
            amount: answer.amount,
            currency_code: answer.currency_code,
            created_at: new Date().toISOString(),
            description,
            counterparty: goal.name,
            card: null,
            failure_reason: null,
          },
        };
      }),
    );
}

/** A regular deposit: a schedule whose target is the goal, confirmed in the PIN modal; it answers no receipt. */
export function startGoalPlan(
  goal: Goal,
  amount: string,
  timing: ScheduleTiming,
  message: string,
): (confirmation: Confirmation) => Promise<PayOutcome> {
  return (confirmation) =>
    payOutcomeOf(
      createSchedule({
        goal_id: goal.id,
        amount,
        currency_code: goal.currency_code as AccountCurrency,
        ...timingBody(timing),
        ...confirmation,
      }).then(() => ({ status: 'success' as const, message, receipt: null })),
    );
}
