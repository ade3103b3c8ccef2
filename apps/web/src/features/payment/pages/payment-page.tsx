/**
 * Payment (docs/product.md 'Payment page', desktop and mobile;
 * docs/decisions/placeholders-and-defects.md#placeholders-become-real-features and
 * docs/decisions/qr-codes.md#qr-codes-we-read).
 * Desktop: a heading, the accounts, a QR image input with a drop area and preview, then the parsed
 * payment and its send button. Narrow screens: tabs 'your QR' (the user's own receive QR) and
 * 'scan QR' (the camera scanner, with the upload as the way out when there is no camera).
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import '../payment.css';
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccounts, type WalletAccount } from '../../../shared/api/wallet.ts';
import { AreaBoundary, AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { WalletCarousel } from '../../../shared/ui/wallet-carousel.tsx';
import { OwnQr } from '../components/own-qr.tsx';
import { QrPaymentCard } from '../components/qr-payment-card.tsx';
import { type CameraProblem, QrScanner } from '../components/qr-scanner.tsx';
import { QrUpload } from '../components/qr-upload.tsx';
import { qrPaymentView } from '../qr/qr-payment-view.ts';

/** Below this width the page is the phone layout (the same width where the navigation moves down). */
export const NARROW_QUERY = '(max-width: 960px)';

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The account a payment is taken from: the person's choice, else the first in the code's currency. */
function usePaymentAccount(qr: string | null) {
  const accounts = useAccounts();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const currency = qr ? (qrPaymentView(qr) as { currency?: string }).currency : undefined;
  // A new code in another currency picks that currency's account again.
  useEffect(() => {
    if (!currency || !accounts.data) return;
    const chosen = accounts.data.find((account) => account.id === chosenId);
    if (chosen?.currency_code === currency) return;
    const matching = accounts.data.find((account) => account.currency_code === currency);
    if (matching) setChosenId(matching.id);
  }, [currency, accounts.data, chosenId]);
  const list = accounts.data ?? [];
  const account = list.find((item) => item.id === chosenId) ?? list[0] ?? null;
  return { accounts, account, choose: (item: WalletAccount) => setChosenId(item.id) };
}

function AccountChoice({
  accounts,
  account,
  choose,
}: Pick<ReturnType<typeof usePaymentAccount>, 'accounts' | 'account' | 'choose'>) {
  const { t } = useTranslation();
  if (accounts.isPending) return <AreaLoading rows={1} />;
  if (accounts.isError) return <AreaError onRetry={() => accounts.refetch()} />;
  if (accounts.data.length === 0)
    return <p className="area-state area-state--empty">{t('accounts.empty')}</p>;
  return (
    <WalletCarousel
      accounts={accounts.data}
      onSelect={choose}
      selectedId={account?.id ?? null}
      label={t('payment.account')}
    />
  );
}

export function PaymentPage() {
  const narrow = useMediaQuery(NARROW_QUERY);
  return narrow ? <MobilePayment /> : <DesktopPayment />;
}

function DesktopPayment() {
  const { t } = useTranslation();
  const [qr, setQr] = useState<string | null>(null);
  const payment = usePaymentAccount(qr);
  return (
    <div className="home-page money-page payment-page" data-layout="desktop">
      <h1 className="home-page__title">{t('payment.title')}</h1>
      <section className="payment-page__accounts" aria-labelledby="payment-accounts-title">
        <h2 id="payment-accounts-title" className="panel__title panel__title--spaced">
          {t('payment.account')}
        </h2>
        <AreaBoundary>
          <AccountChoice {...payment} />
        </AreaBoundary>
      </section>
      <div className="payment-page__grid">
        <section className="panel" aria-labelledby="payment-upload-title">
          <h2 id="payment-upload-title" className="panel__title panel__title--spaced">
            {t('payment.upload.title')}
          </h2>
          <QrUpload onRead={setQr} onClear={() => setQr(null)} />
        </section>
        {qr ? (
          <AreaBoundary>
            <QrPaymentCard key={qr} qr={qr} account={payment.account} />
          </AreaBoundary>
        ) : (
          <section className="panel payment-page__empty">
            <p>{t('payment.details.empty')}</p>
          </section>
        )}
      </div>
    </div>
  );
}

type Tab = 'own' | 'scan';

function MobilePayment() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('own');
  const [qr, setQr] = useState<string | null>(null);
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const payment = usePaymentAccount(qr);
  const id = useId();
  const tabs: Tab[] = ['own', 'scan'];

  const select = (next: Tab) => {
    setTab(next);
    if (next === 'scan') {
      setQr(null);
      setProblem(null);
    }
  };

  return (
    <div className="home-page money-page payment-page payment-page--mobile" data-layout="mobile">
      <h1 className="visually-hidden">{t('payment.title')}</h1>
      <div className="payment-tabs" role="tablist" aria-label={t('payment.tabs.label')}>
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${id}-${name}`}
            aria-selected={tab === name}
            aria-controls={`${id}-${name}-panel`}
            tabIndex={tab === name ? 0 : -1}
            className="payment-tabs__tab"
            onClick={() => select(name)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
                const next = name === 'own' ? 'scan' : 'own';
                select(next);
                document.getElementById(`${id}-${next}`)?.focus();
              }
            }}
          >
            {t(`payment.tabs.${name}`)}
          </button>
        ))}
      </div>
      <div
        id={`${id}-${tab}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-${tab}`}
        className="payment-tabs__panel"
      >
        {tab === 'own' ? (
          <AreaBoundary>
            <OwnQr />
          </AreaBoundary>
        ) : qr ? (
          <>
            <section className="payment-page__accounts" aria-label={t('payment.account')}>
              <AreaBoundary>
                <AccountChoice {...payment} />
              </AreaBoundary>
            </section>
            <AreaBoundary>
              <QrPaymentCard key={qr} qr={qr} account={payment.account} onAnother={() => select('scan')} />
            </AreaBoundary>
          </>
        ) : (
          <>
            <section className="panel" aria-labelledby={`${id}-scan-title`}>
              <h2 id={`${id}-scan-title`} className="panel__title panel__title--spaced">
                {t('payment.scan.title')}
              </h2>
              <QrScanner onRead={setQr} onProblem={setProblem} />
            </section>
            <section className="panel" aria-labelledby={`${id}-upload-title`}>
              <h2 id={`${id}-upload-title`} className="panel__title panel__title--spaced">
                {t('payment.scan.upload')}
              </h2>
              <QrUpload onRead={setQr} onClear={() => setQr(null)} compact={!problem} />
            </section>
          </>
        )}
      </div>
    </div>
  );
}

export default PaymentPage;
