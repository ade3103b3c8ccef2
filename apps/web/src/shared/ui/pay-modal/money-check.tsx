/**
 * The answers before the PIN (docs/decisions/account.md#self-protection-and-the-answers-before-the-pin): a
 * money screen asks its check call as the person types (debounced; a newer question cancels the older one),
 * shows each problem inline and the monthly limit meter, and opens the PIN modal only when the check says ok.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthInfo } from '../../api/auth-info.ts';
import { formatMoney } from '../../format/money.ts';
import { useDebounced } from '../../hooks/use-debounced.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { pathTo } from '../../routes.ts';
import { Button } from '../button.tsx';

export type CheckAnswer = AnswerOf<'transferCheck'>;
export type Limits = CheckAnswer['limits'];

export const CHECK_DEBOUNCE_MS = 350;

/**
 * Asks `ask(body)` for the body the person settled on; `body` null means the form is not complete.
 * `ready` is true only when the answer is about the current body and says ok.
 */
export function useMoneyCheck<B>(
  name: string,
  body: B | null,
  ask: (body: B, signal: AbortSignal) => Promise<CheckAnswer>,
) {
  const settled = useDebounced(body, CHECK_DEBOUNCE_MS);
  const key = settled === null ? null : JSON.stringify(settled);
  const current = body === null ? null : JSON.stringify(body);
  const query = useQuery({
    queryKey: ['money-check', name, key],
    // The query's signal aborts the request when the key moves on (a stale question).
    queryFn: ({ signal }) => ask(settled as B, signal),
    enabled: key !== null,
    retry: false,
    staleTime: 0,
    gcTime: 30_000,
    placeholderData: keepPreviousData,
  });
  const fresh = key !== null && key === current && !query.isPlaceholderData && query.isSuccess;
  return {
    answer: body === null ? null : (query.data ?? null),
    checking: body !== null && (!fresh || query.isFetching),
    ready: fresh && !query.isFetching && query.data.ok,
    problems: body !== null && query.data ? query.data.problems : [],
  };
}

/** Each problem's message, inline under the form, read out as it changes. */
export function CheckProblems({ problems }: { problems: CheckAnswer['problems'] }) {
  return (
    <div className="money-check" aria-live="polite" data-testid="check-problems">
      {problems.length > 0 && (
        <ul className="money-check__problems">
          {problems.map((problem) => (
            <li key={problem.code} className="money-check__problem" data-code={problem.code}>
              {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Refusals a higher identification level lifts, and those more money in the wallet lifts. */
const IDENTIFY_LIFTS = new Set([
  'TRANSFER_NOT_ALLOWED',
  'WITHDRAWAL_NOT_ALLOWED',
  'EXCHANGE_NOT_ALLOWED',
  'LIMIT_MONTHLY',
  'LIMIT_BALANCE',
]);
const TOP_UP_LIFTS = new Set(['INSUFFICIENT_FUNDS']);

/**
 * The next step under the check's problems, as a button before any PIN is asked: 'Пройти
 * идентификацию' for a level's refusal, 'Пополнить кошелёк' for missing money. The rules stay the
 * server's: this only maps a refusal's code to where it is lifted.
 */
export function CheckNextSteps({ problems }: { problems: CheckAnswer['problems'] }) {
  const { t } = useTranslation();
  const codes = problems.map((problem) => problem.code);
  const identify = codes.some((code) => IDENTIFY_LIFTS.has(code));
  const topUp = codes.some((code) => TOP_UP_LIFTS.has(code));
  if (!identify && !topUp) return null;
  return (
    <div className="money-check__next" data-testid="check-next">
      {identify && (
        <Link className="button button--primary button--block" to={pathTo('Settings')}>
          {t('moneyFlow.next.identify')}
        </Link>
      )}
      {topUp && (
        <Link className="button button--secondary button--block" to={pathTo('WalletTopUp')}>
          {t('moneyFlow.next.topUp')}
        </Link>
      )}
    </div>
  );
}

/**
 * Paying one row (a request, a merchant's payment), whose check needs no input: the check's problems,
 * the next step, and the button the check enables.
 */
export function CheckedPay({
  check,
  onPay,
  children,
}: {
  check: Pick<ReturnType<typeof useMoneyCheck>, 'problems' | 'ready' | 'checking'>;
  onPay: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <CheckProblems problems={check.problems} />
      <CheckNextSteps problems={check.problems} />
      <Button
        type="button"
        block
        disabled={!check.ready}
        busy={check.checking && !check.problems.length}
        onClick={onPay}
      >
        {children}
      </Button>
    </>
  );
}

/**
 * 'осталось 32 400 ₽ из 40 000 ₽ в этом месяце' with a bar; the latest check's limits, else the
 * auth info's. Nothing for a level without a monthly limit.
 */
export function LimitMeter({ limits }: { limits?: Limits | null }) {
  const { t } = useTranslation();
  const info = useAuthInfo();
  const shown = limits ?? info.data?.limits;
  if (!shown || shown.monthly_outgoing_max === null || shown.monthly_outgoing_left === null) return null;
  const language = currentLanguage();
  const max = Number(shown.monthly_outgoing_max);
  const left = Number(shown.monthly_outgoing_left);
  return (
    <div className="limit-meter" data-testid="limit-meter">
      <div className="limit-meter__head">
        <span className="limit-meter__label">{t('limitMeter.label')}</span>
        <span className="limit-meter__text">
          {t('limitMeter.text', {
            left: formatMoney(shown.monthly_outgoing_left, shown.currency_code, language),
            max: formatMoney(shown.monthly_outgoing_max, shown.currency_code, language),
          })}
        </span>
      </div>
      <meter
        className="limit-meter__bar"
        min={0}
        max={max}
        low={max * 0.2}
        optimum={max}
        value={left}
        aria-label={t('limitMeter.label')}
      />
    </div>
  );
}
