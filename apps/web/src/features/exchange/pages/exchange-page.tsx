/**
 * 'Обмен' (docs/decisions/exchange.md#exchange-between-ones-own-accounts): exchange between one's own
 * accounts. Choose the account to give from and the currency to receive (its account opens if missing), type
 * either amount; the server's quote shows the rate, the fee and what arrives, with a countdown of its 30
 * seconds (an expired quote is asked again by itself); 'Обменять' opens the PIN modal and its receipt.
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import './exchange.css';
import { ACCOUNT_CURRENCIES, type AccountCurrency, amountForInput } from '@e-wallet/contract/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { useAccounts } from '../../../shared/api/wallet.ts';
import { formatDateTime } from '../../../shared/format/date.ts';
import { formatAmountText, formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { UnavailableNotice } from '../../../shared/ui/pay-modal/notice.tsx';
import { PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { type Quote, ratesQuery, requestQuote, startExchange } from '../api/exchange.ts';

type Side = 'give' | 'receive';

/** Waits this long after the last keystroke before asking for a quote. */
const QUOTE_DELAY_MS = 350;

export function ExchangePage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const authInfo = useAuthInfo();
  const accounts = useAccounts();
  const rates = useQuery(ratesQuery());

  const owned = (accounts.data ?? []).map((account) => account.currency_code as AccountCurrency);
  const asked = params.get('from') as AccountCurrency | null;
  const [fromChoice, setFrom] = useState<AccountCurrency | null>(null);
  const from: AccountCurrency | null =
    fromChoice ?? (asked && owned.includes(asked) ? asked : (owned[0] ?? null));
  const [toChoice, setTo] = useState<AccountCurrency | null>(null);
  const to: AccountCurrency =
    toChoice && toChoice !== from
      ? toChoice
      : (ACCOUNT_CURRENCIES.find((c) => c !== from && c === (from === 'USD' ? 'RUB' : 'USD')) ?? 'USD');
  const [driver, setDriver] = useState<Side>('give');
  const [give, setGive] = useState('');
  const [receive, setReceive] = useState('');
  const [quote, setQuote] = useState<Quote | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [quoting, setQuoting] = useState(false);
  const [again, setAgain] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [open, setOpen] = useState(false);
  const [opening, setOpening] = useState(0);

  const typed = driver === 'give' ? give : receive;
  const typedCurrency = driver === 'give' ? from : to;
  const checked = typedCurrency ? checkAmount(typed, typedCurrency) : null;
  const wanted = checked?.ok ? checked.amount : null;

  // A quote for what was typed, asked again when it expires (never while the PIN modal is open).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `again` asks for a fresh quote
  useEffect(() => {
    setQuote(null);
    setProblem(null);
    if (!from || !wanted || from === to) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setQuoting(true);
      try {
        const body =
          driver === 'give'
            ? { from_currency: from, to_currency: to, amount: wanted }
            : { from_currency: from, to_currency: to, receive_amount: wanted };
        const answer = await requestQuote(body, controller.signal);
        setQuote(answer);
        if (driver === 'give') setReceive(amountForInput(answer.receive_amount, language));
        else setGive(amountForInput(answer.amount, language));
      } catch (error) {
        if (controller.signal.aborted) return;
        setProblem(
          error instanceof ApiError && error.answer ? error.answer.message : t('common.networkError'),
        );
      } finally {
        if (!controller.signal.aborted) setQuoting(false);
      }
    }, QUOTE_DELAY_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
      setQuoting(false);
    };
  }, [from, to, driver, wanted, again]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const secondsLeft = quote ? Math.ceil((Date.parse(quote.expires_at) - now) / 1000) : 0;
  const expired = quote !== null && secondsLeft <= 0;
  useEffect(() => {
    if (expired && !open) setAgain((n) => n + 1);
  }, [expired, open]);

  // One opening of the PIN modal is one attempt with one Idempotency-Key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt per opening
  const send = useMemo(() => (quote ? startExchange(quote.quote_id) : null), [quote?.quote_id, opening]);

  const allowed = authInfo.data?.is_exchange_allowed ?? false;
  const pairRate = rates.data?.results.find((r) => r.from_currency === from && r.to_currency === to);
  const disabled = !allowed || !quote || expired || quoting;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (disabled) return;
    setOpening((n) => n + 1);
    setOpen(true);
  }

  if (accounts.isPending) return <AreaLoading rows={2} />;
  if (accounts.isError) return <AreaError onRetry={() => accounts.refetch()} />;

  const source = rates.data?.source === 'cbr' ? 'cbr' : 'sandbox';
  return (
    <div className="home-page money-page money-flow exchange-page">
      <h1 className="home-page__title">{t('exchangePage.title')}</h1>
      <section className="panel money-flow__panel" aria-labelledby="exchange-form-title">
        <h2 id="exchange-form-title" className="visually-hidden">
          {t('exchangePage.title')}
        </h2>
        {authInfo.isSuccess && !allowed && (
          <UnavailableNotice testId="exchange-unavailable" text={t('exchangePage.unavailable')} />
        )}
        <form className="money-flow__form" onSubmit={submit} noValidate>
          <div className="exchange-page__pair">
            <SelectField
              label={t('exchangePage.from')}
              value={from ?? ''}
              onChange={(next) => setFrom(next as AccountCurrency)}
              options={accounts.data.map((account) => ({
                value: account.currency_code,
                label: `${account.currency_code} · ${formatMoney(account.balance, account.currency_code, language)}`,
              }))}
            />
            <button
              type="button"
              className="exchange-page__swap"
              aria-label={t('exchangePage.swap')}
              disabled={!owned.includes(to)}
              onClick={() => {
                if (!from) return;
                setFrom(to);
                setTo(from);
              }}
            >
              ⇄
            </button>
            <SelectField
              label={t('exchangePage.to')}
              value={to}
              onChange={setTo}
              options={ACCOUNT_CURRENCIES.filter((currency) => currency !== from).map((currency) => ({
                value: currency,
                label: owned.includes(currency) ? currency : t('exchangePage.opensAccount', { currency }),
              }))}
            />
          </div>
          <AmountField
            label={t('exchangePage.give')}
            value={give}
            onChange={(next) => {
              setDriver('give');
              setGive(next);
            }}
            currency={from ?? 'RUB'}
            error={driver === 'give' ? problem : null}
          />
          <AmountField
            label={t('exchangePage.receive')}
            value={receive}
            onChange={(next) => {
              setDriver('receive');
              setReceive(next);
            }}
            currency={to}
            error={driver === 'receive' ? problem : null}
          />
          <div className="exchange-quote" aria-live="polite" data-testid="exchange-quote">
            {quote && !expired ? (
              <>
                <dl className="exchange-quote__rows">
                  <div>
                    <dt>{t('exchangePage.rate')}</dt>
                    <dd data-testid="exchange-rate">
                      {t('exchangePage.rateLine', {
                        from: quote.from_currency,
                        to: quote.to_currency,
                        rate: formatAmountText(quote.rate, language),
                      })}
                    </dd>
                  </div>
                  <div>
                    <dt>
                      {t('exchangePage.fee', { percent: formatAmountText(quote.spread_percent, language) })}
                    </dt>
                    <dd data-testid="exchange-fee">
                      {formatMoney(quote.fee, quote.from_currency, language)}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('exchangePage.arrives')}</dt>
                    <dd data-testid="exchange-receive">
                      {formatMoney(quote.receive_amount, quote.to_currency, language)}
                    </dd>
                  </div>
                </dl>
                <p className="exchange-quote__countdown" data-testid="exchange-countdown">
                  {t('exchangePage.quoteHolds', { seconds: secondsLeft })}
                </p>
              </>
            ) : expired ? (
              <p className="money-flow__status">{t('exchangePage.quoteExpired')}</p>
            ) : quoting ? (
              <p className="money-flow__status">{t('exchangePage.quoting')}</p>
            ) : null}
            {pairRate && (
              <p className="exchange-quote__age" data-testid="exchange-age">
                {t('exchangePage.updated', {
                  source: t(`exchangePage.source.${source}`),
                  when: formatDateTime(pairRate.updated_at, language),
                })}
              </p>
            )}
          </div>
          <Button type="submit" block disabled={disabled} busy={quoting}>
            {t('exchangePage.submit')}
          </Button>
        </form>
        <aside className="money-flow__aside">
          <p>{t('exchangePage.text')}</p>
        </aside>
      </section>
      {quote && send && (
        <PayModal
          open={open}
          title={t('exchangePage.modalTitle')}
          summary={
            <PaySummary
              amount={quote.amount}
              currency={quote.from_currency}
              to={t('exchangePage.summaryTo', {
                amount: formatMoney(quote.receive_amount, quote.to_currency, language),
              })}
            />
          }
          send={send}
          successText={t('exchangePage.success')}
          onReceipt={() => void refreshAfterMoney(queryClient)}
          onClose={() => {
            setOpen(false);
            setAgain((n) => n + 1);
          }}
        />
      )}
    </div>
  );
}

export default ExchangePage;
