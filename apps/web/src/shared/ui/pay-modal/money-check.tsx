/**
 * The answers before the PIN (docs/decisions/account.md#self-protection-and-the-answers-before-the-pin): a
 * money screen asks its check call as the person types (debounced; a newer question cancels the older one),
 * shows each problem inline and the monthly limit meter, and opens the PIN modal only when the check says ok.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../api/auth-info.ts';
import { formatMoney } from '../../format/money.ts';
import { useDebounced } from '../../hooks/use-debounced.ts';
import { currentLanguage } from '../../i18n/i18n.ts';

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
