/**
 * The payment a QR code describes (docs/decisions/qr-codes.md#qr-codes-we-read): the payee (the masked wallet
 * user for our own receive QR, name and bank for a GOST code), the amount or a field for it, the account it
 * is paid from, and a send button that pays after the PIN is confirmed in the shared pay modal.
 * An SBP code says it needs a member bank; anything else gets the 'temporarily unavailable' text
 * with what was read. Only payable codes have a send button: nothing else moves money.
 */
import { type CurrencyCode, isCurrencyCode } from '@e-wallet/contract/money';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { callOk } from '../../../shared/api/client.ts';
import type { WalletAccount } from '../../../shared/api/wallet.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { formatPhone } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import {
  CheckNextSteps,
  CheckProblems,
  LimitMeter,
  useMoneyCheck,
} from '../../../shared/ui/pay-modal/money-check.tsx';
import { PayModal, PaySummary } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { payOutcomeOf } from '../../../shared/ui/pay-modal/pay-outcome.ts';
import { refreshAfterMoney } from '../../../shared/ui/pay-modal/refresh.ts';
import { startQrPayment } from '../api/qr-payment.ts';
import { checkQrPayment } from '../api/qr-payment-check.ts';
import { useRecipient } from '../api/recipient.ts';
import { isPayable, type QrPaymentView, qrPaymentView, typedAmount } from '../qr/qr-payment-view.ts';

export interface QrPaymentCardProps {
  /** The QR address: the decoded content text. */
  qr: string;
  /** The account the payment is taken from (the page picks the one in the code's currency). */
  account: WalletAccount | null;
  /** 'Scan another code', when the page offers it. */
  onAnother?: () => void;
}

export function QrPaymentCard({ qr, account, onAnother }: QrPaymentCardProps) {
  const { t } = useTranslation();
  const view = useMemo(() => qrPaymentView(qr), [qr]);
  return (
    <section className="panel qr-payment" aria-labelledby="qr-payment-title" data-testid="qr-payment">
      <h2 id="qr-payment-title" className="panel__title panel__title--spaced">
        {t('payment.details.title')}
      </h2>
      {isPayable(view) ? <PayablePayment view={view} account={account} /> : <NotPayable view={view} />}
      {onAnother && (
        <Button variant="secondary" block onClick={onAnother}>
          {t('payment.details.cancel')}
        </Button>
      )}
    </section>
  );
}

function NotPayable({ view }: { view: Exclude<QrPaymentView, { kind: 'wallet' | 'gost' }> }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  if (view.kind === 'sbp') {
    return (
      <>
        <dl className="facts qr-payment__facts">
          <Fact name={t('payment.details.kindSbp')} value={view.bank ?? '—'} />
          {view.amount && (
            <Fact
              name={t('payment.details.amount')}
              value={formatMoney(view.amount, view.currency, language)}
            />
          )}
        </dl>
        <p className="qr-payment__notice" role="alert" data-testid="qr-unavailable">
          {t('payment.details.sbpUnavailable')}
        </p>
      </>
    );
  }
  // A merchant's code opens its payment page: the payment, or the till's typed amount.
  if (view.kind === 'merchant') return <Navigate to={view.path} />;
  if (view.kind === 'invalid') {
    const reason = t(`payment.details.reasons.${view.reason}`, { field: view.field });
    return (
      <p className="qr-payment__notice" role="alert" data-testid="qr-unavailable">
        {t('payment.details.invalid', { reason })}
      </p>
    );
  }
  return (
    <div className="qr-payment__notice" role="alert" data-testid="qr-unavailable">
      <p>{t('payment.details.unsupported')}</p>
      <p className="qr-payment__read">{t('payment.details.read', { text: view.qr })}</p>
    </div>
  );
}

function Fact({ name, value, testId }: { name: string; value: string; testId?: string }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function PayablePayment({
  view,
  account,
}: {
  view: Extract<QrPaymentView, { kind: 'wallet' | 'gost' }>;
  account: WalletAccount | null;
}) {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const recipient = useRecipient(view.kind === 'wallet' ? view.phone : null);
  const [typed, setTyped] = useState('');
  const [touched, setTouched] = useState(false);
  const [open, setOpen] = useState(false);
  // Once paid (or held), the code's check is not asked again behind the result.
  const [paid, setPaid] = useState(false);
  // One Idempotency-Key per opening of the PIN modal: a retry inside it reuses the key.
  const [attempt, setAttempt] = useState(() => startQrPayment());

  const currency: CurrencyCode | null = isCurrencyCode(view.currency) ? view.currency : null;
  const amountInput = view.amount === null && currency ? typedAmount(typed, currency) : null;
  const amount = view.amount ?? (amountInput?.ok ? amountInput.amount : null);
  const amountError =
    amountInput && !amountInput.ok && (touched || typed !== '')
      ? t(`payment.amountErrors.${amountInput.error}`)
      : null;
  const accountProblem = !account
    ? t('payment.details.noAccount', { currency: view.currency })
    : account.currency_code !== view.currency
      ? t('payment.details.wrongAccount', { currency: view.currency })
      : null;
  const recipientProblem =
    view.kind === 'wallet' && recipient.isError
      ? recipient.error instanceof ApiError && recipient.error.answer
        ? recipient.error.answer.message
        : t('common.unexpectedError')
      : null;
  const payee =
    view.kind === 'wallet'
      ? `${named(recipient.data?.name ?? '')} ${formatPhone(view.phone)}`.trim()
      : `${view.payee}, ${view.bank}`;

  const currencyCode = view.currency as CurrencyCode;
  const check = useMoneyCheck(
    'qr',
    amount && !accountProblem && !recipientProblem && !paid
      ? { qr: view.qr, ...(view.amount === null ? { amount } : {}), currency_code: currencyCode }
      : null,
    checkQrPayment,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!amount || accountProblem || recipientProblem || !check.ready) return;
    setAttempt(startQrPayment());
    setOpen(true);
  };

  return (
    <>
      <form className="qr-payment__form" onSubmit={submit} noValidate>
        <p className="qr-payment__kind">
          {t(view.kind === 'wallet' ? 'payment.details.kindWallet' : 'payment.details.kindGost')}
        </p>
        <dl className="facts qr-payment__facts">
          {view.kind === 'wallet' ? (
            <>
              <Fact
                name={t('payment.details.recipient')}
                value={
                  recipient.isPending
                    ? t('payment.details.recipientLoading')
                    : recipient.data
                      ? named(recipient.data.name)
                      : '—'
                }
                testId="qr-recipient"
              />
              <Fact name={t('payment.details.recipientPhone')} value={formatPhone(view.phone)} />
            </>
          ) : (
            <>
              <Fact name={t('payment.details.payee')} value={view.payee} testId="qr-payee" />
              <Fact name={t('payment.details.bank')} value={view.bank} testId="qr-bank" />
              <Fact name={t('payment.details.bic')} value={view.bic} />
              <Fact name={t('payment.details.account')} value={view.account} />
              {view.purpose && <Fact name={t('payment.details.purpose')} value={view.purpose} />}
            </>
          )}
          {view.amount && (
            <Fact
              name={t('payment.details.amount')}
              value={formatMoney(view.amount, view.currency, language)}
              testId="qr-amount"
            />
          )}
        </dl>
        {view.amount === null && (
          <AmountField
            label={t('payment.details.amountField')}
            value={typed}
            onChange={setTyped}
            currency={view.currency}
            error={amountError}
          />
        )}
        {recipientProblem && (
          <p className="form-error" role="alert">
            {recipientProblem}
          </p>
        )}
        {accountProblem && (
          <p className="form-error" role="alert">
            {accountProblem}
          </p>
        )}
        <CheckProblems problems={check.problems} />
        <CheckNextSteps problems={check.problems} />
        <LimitMeter limits={check.answer?.limits} />
        <Button
          type="submit"
          block
          disabled={!!accountProblem || !!recipientProblem || (!!amount && !check.ready)}
          busy={check.checking && !check.problems.length}
        >
          {t('payment.details.send')}
        </Button>
      </form>
      {/* Outside the form: the modal's own PIN form must not submit this one. */}
      <PayModal
        open={open}
        title={t('payment.pin.title')}
        summary={amount ? <PaySummary amount={amount} currency={view.currency} to={payee} /> : null}
        send={(confirmation) =>
          payOutcomeOf(
            attempt.send({
              body: {
                qr: view.qr,
                // The code's own amount is not repeated: the server takes it from the code.
                ...(view.amount === null && amount ? { amount } : {}),
                currency_code: view.currency as CurrencyCode,
                ...confirmation,
              },
            }),
          )
        }
        refreshReceipt={(receipt) => callOk('withdrawalReceipt', { params: { id: receipt.id } })}
        onReceipt={() => void refreshAfterMoney(queryClient)}
        onClose={() => setOpen(false)}
        onDone={() => {
          setPaid(true);
          setTyped('');
        }}
      />
    </>
  );
}
