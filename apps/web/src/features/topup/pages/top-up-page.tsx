/**
 * Top-up (docs/product.md 'Top-up', docs/product.md#states-and-transitions): the RUB account in the carousel,
 * the amount (placeholder 0), its error line, and 'Пополнить', disabled while the request runs; an error
 * answer shows the server's message and enables the button again; success sends the browser to the
 * payment page. Without the right (is_topup_allowed) the top-up's own notice shows
 * (docs/decisions/placeholders-and-defects.md#defects-are-fixed).
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import { CASH_CURRENCY } from '@e-wallet/contract/money';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { useAccounts } from '../../../shared/api/wallet.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { WayChoice } from '../../../shared/sbp/sbp-form.tsx';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { UnavailableNotice } from '../../../shared/ui/pay-modal/notice.tsx';
import { WalletCarousel } from '../../../shared/ui/wallet-carousel.tsx';
import { startTopUp } from '../api/top-up.ts';

/** Leaves the app for the provider's page (a function, so tests can replace it). */
export const browser = { go: (url: string) => window.location.assign(url) };

export function TopUpPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const authInfo = useAuthInfo();
  const accounts = useAccounts();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // By card or by СБП on the provider's page (docs/decisions/sbp.md#top-up-by-sbp).
  const [method, setMethod] = useState<'card' | 'sbp'>('card');

  const rubAccounts = accounts.data?.filter((account) => account.currency_code === CASH_CURRENCY) ?? [];
  const allowed = authInfo.data?.is_topup_allowed ?? true;
  const limit = authInfo.data?.limits.balance_max;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending || leaving || !allowed) return;
    const checked = checkAmount(amount, CASH_CURRENCY);
    if (!checked.ok) {
      setError(t(`moneyFlow.amountErrors.${checked.problem}`));
      return;
    }
    setError(null);
    setSending(true);
    const answer = await startTopUp(checked.amount, method);
    if (answer.status === 'error') {
      setError(answer.message);
      setSending(false);
      return;
    }
    // The button stays disabled while the browser leaves for the payment page.
    setLeaving(true);
    browser.go(answer.url);
  }

  return (
    <div className="home-page money-page money-flow">
      <h1 className="home-page__title">{t('topUpPage.title')}</h1>
      {accounts.isPending ? (
        <AreaLoading rows={1} />
      ) : accounts.isError ? (
        <AreaError onRetry={() => accounts.refetch()} />
      ) : rubAccounts.length === 0 ? (
        <p className="area-state area-state--empty">{t('moneyFlow.noRubAccount')}</p>
      ) : (
        <WalletCarousel
          accounts={rubAccounts}
          label={t('topUpPage.carousel')}
          selectedId={rubAccounts[0]?.id}
          onSelect={() => undefined}
        />
      )}
      <section className="panel money-flow__panel" aria-labelledby="top-up-form-title">
        <h2 id="top-up-form-title" className="visually-hidden">
          {t('topUpPage.title')}
        </h2>
        {!allowed && <UnavailableNotice testId="top-up-unavailable" text={t('topUpPage.unavailable')} />}
        <form className="money-flow__form" onSubmit={submit} noValidate>
          <WayChoice
            label={t('sbp.topUpWay')}
            value={method}
            onChange={setMethod}
            ways={[
              { way: 'card', label: t('sbp.topUpCard') },
              { way: 'sbp', label: t('sbp.topUpSbp') },
            ]}
          />
          <AmountField
            value={amount}
            onChange={(next) => {
              setAmount(next);
              if (error) setError(null);
            }}
            currency={CASH_CURRENCY}
            error={error}
            hint={
              limit ? t('topUpPage.limit', { limit: formatMoney(limit, CASH_CURRENCY, language) }) : undefined
            }
            disabled={!allowed}
            autoFocus={allowed}
          />
          <Button type="submit" block busy={sending || leaving} disabled={!allowed}>
            {t('topUpPage.submit')}
          </Button>
          {leaving && (
            <p className="money-flow__status" role="status">
              {t('topUpPage.redirecting')}
            </p>
          )}
        </form>
        <aside className="money-flow__aside">
          <p>{method === 'sbp' ? t('sbp.topUpSbpText') : t('topUpPage.text')}</p>
        </aside>
      </section>
    </div>
  );
}

export default TopUpPage;
