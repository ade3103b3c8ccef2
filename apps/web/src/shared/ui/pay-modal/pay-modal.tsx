/**
 * The pay modal (docs/product.md 'Pay modal stages'): PIN entry, waiting, success, failed and the
 * receipt of the operation. Used by withdrawal, transfer and QR payment:
 *
 *   const attempt = useMemo(() => startMoneyAttempt('withdrawal'), [openedAt]); // one key per attempt
 *   <PayModal
 *     open={open}
 *     title="Вывод на карту"
 *     summary={<PaySummary amount="1500.00" currency="RUB" to="На карту 4111 11•• •••• 1111" />}
 *     send={(confirmation) => payOutcomeOf(attempt.send({ body: { ...input, ...confirmation } }))}
 *     successText="Заявка на вывод средств успешно создана!"
 *     refreshReceipt={(receipt) => callOk('withdrawalReceipt', { params: { id: receipt.id } })}
 *     onReceipt={() => refreshBalances()}
 *     onClose={() => setOpen(false)}
 *   />
 *
 * `send` is called with the PIN, or with a passkey's answer when the person has a passkey and
 * chooses it (docs/decisions/money-calls.md#money-confirmed-with-the-pin-or-a-passkey), on every confirmation
 * of this opening; the caller keeps one Idempotency-Key for the opening (a failed call stores nothing on the
 * server, so a second try runs again, and a repeat after a lost answer returns the first one).
 */
import './pay-modal.css';
import { type ReactNode, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReceiptSlot } from '../../documents/document-slots.tsx';
import { formatMoney } from '../../format/money.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { onLiveEvent } from '../../live/event-stream.ts';
import {
  type PasskeyAnswer,
  PasskeyCancelled,
  passkeyAnswer,
  useCanUsePasskey,
} from '../../passkeys/passkeys.ts';
import { Button } from '../button.tsx';
import { CodeInput } from '../code-input.tsx';
import { HeldStage } from './held-stage.tsx';
import { ModalFrame } from './modal-frame.tsx';
import { canClose, failureOffer, initialPayState, payReducer } from './pay-modal-state.ts';
import type { PayOutcome, Receipt } from './pay-outcome.ts';
import { ReceiptView, ResultView, WaitingView } from './stage-views.tsx';

export const PIN_LENGTH = 4;

/** How the person confirms: the PIN, or a passkey's answer to the server's challenge. */
export type Confirmation = { pin: string } | { passkey: PasskeyAnswer };
/** How often a pending receipt (a payout on its way) is asked again while the modal is open. */
export const RECEIPT_REFRESH_MS = 2000;

export interface PayModalProps {
  open: boolean;
  /** The modal's heading, such as 'Вывод на карту'. */
  title: string;
  /** What is being paid, shown above the PIN boxes (see PaySummary). */
  summary?: ReactNode;
  /** Sends the operation with its confirmation; must not throw (wrap the call in payOutcomeOf). */
  send: (confirmation: Confirmation) => Promise<PayOutcome>;
  /** The success stage's text; without it, the server's message. */
  successText?: string;
  /** Asks the receipt again, to follow an operation that is still pending (a payout). */
  refreshReceipt?: (receipt: Receipt) => Promise<Receipt>;
  /** Called with each new receipt (after success and after each change): refresh balances here. */
  onReceipt?: (receipt: Receipt) => void;
  /** Hides the modal (the page decides what comes next). */
  onClose: () => void;
  /**
   * The money left or is held: the form behind the sheet starts afresh, so it never shows a check
   * of the money just spent ('Недостаточно средств') behind a result.
   */
  onDone?: () => void;
}

export function PayModal({
  open,
  title,
  summary,
  send,
  successText,
  refreshReceipt,
  onReceipt,
  onClose,
  onDone,
}: PayModalProps) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(payReducer, initialPayState);
  const [pin, setPin] = useState('');
  const canUsePasskey = useCanUsePasskey();
  const [askingDevice, setAskingDevice] = useState(false);
  const latest = useRef({ send, refreshReceipt, onReceipt, onDone });
  latest.current = { send, refreshReceipt, onReceipt, onDone };

  // Every opening starts at PIN entry.
  useEffect(() => {
    if (open) {
      dispatch({ type: 'reset' });
      setPin('');
    }
  }, [open]);

  const done = state.stage === 'success' || state.stage === 'held';
  useEffect(() => {
    if (done) latest.current.onDone?.();
  }, [done]);

  // A pending receipt is followed while the modal is open.
  const receipt = state.receipt;
  useEffect(() => {
    if (receipt) latest.current.onReceipt?.(receipt);
  }, [receipt]);
  const followId = open && receipt?.status === 'pending' && refreshReceipt ? receipt : null;
  useEffect(() => {
    if (!followId) return;
    let stopped = false;
    const refresh = async () => {
      try {
        const next = await latest.current.refreshReceipt?.(followId);
        if (!stopped && next && next.status !== followId.status)
          dispatch({ type: 'receiptUpdated', receipt: next });
      } catch {
        // Asked again at the next tick.
      }
    };
    const timer = setInterval(refresh, RECEIPT_REFRESH_MS);
    // A settled payout arrives on the live stream: the stage moves on at once, not at the next tick.
    const stopWaking = onLiveEvent((event) => {
      if (event.event === 'transaction') void refresh();
    });
    return () => {
      stopped = true;
      clearInterval(timer);
      stopWaking();
    };
  }, [followId]);

  async function confirm(confirmation: Confirmation) {
    if (state.stage !== 'enterPin') return;
    if ('pin' in confirmation && confirmation.pin.length < PIN_LENGTH) return;
    dispatch({ type: 'submit' });
    const outcome = await latest.current.send(confirmation);
    dispatch({ type: 'answered', outcome });
  }

  async function confirmWithPasskey() {
    if (askingDevice) return;
    setAskingDevice(true);
    let answer: PasskeyAnswer;
    try {
      answer = await passkeyAnswer();
    } catch (failure) {
      // A cancelled prompt leaves the PIN boxes as they were; anything else is the operation's failure.
      if (!(failure instanceof PasskeyCancelled))
        dispatch({
          type: 'answered',
          outcome: { status: 'error', message: failure instanceof Error ? failure.message : '', code: null },
        });
      return;
    } finally {
      setAskingDevice(false);
    }
    await confirm({ passkey: answer });
  }

  const closable = canClose(state.stage);
  const offer = failureOffer(state.code);
  return (
    <ModalFrame
      open={open}
      title={title}
      closable={closable}
      onClose={onClose}
      testId="pay-modal"
      focusKey={state.stage}
    >
      {state.stage === 'enterPin' && (
        <form
          className="pay-stage pay-stage--pin"
          onSubmit={(event) => {
            event.preventDefault();
            void confirm({ pin });
          }}
        >
          {summary}
          <p className="pay-stage__title">{t('payModal.pinTitle')}</p>
          <p className="pay-stage__text">{t('payModal.pinText')}</p>
          <CodeInput
            value={pin}
            onChange={setPin}
            label={t('payModal.pinLabel')}
            digitLabel={(n, total) => t('payModal.pinDigit', { n, total })}
            length={PIN_LENGTH}
            secret
            autoFocus
          />
          <Button type="submit" block disabled={pin.length < PIN_LENGTH}>
            {t('payModal.send')}
          </Button>
          {canUsePasskey && (
            <Button
              type="button"
              variant="secondary"
              block
              busy={askingDevice}
              onClick={() => void confirmWithPasskey()}
            >
              {t('payModal.passkey')}
            </Button>
          )}
        </form>
      )}
      {state.stage === 'waiting' && <WaitingView />}
      {state.stage === 'success' && (
        <ResultView
          tone="success"
          title={successText ?? state.message ?? ''}
          actions={
            <>
              {state.receipt && (
                <Button variant="secondary" onClick={() => dispatch({ type: 'showDetails' })}>
                  {t('payModal.details')}
                </Button>
              )}
              <Button onClick={onClose}>{t('payModal.done')}</Button>
            </>
          }
        >
          {state.receipt && <ReceiptAmount receipt={state.receipt} />}
        </ResultView>
      )}
      {state.stage === 'failed' && (
        <ResultView
          tone="failed"
          title={t('payModal.failedTitle')}
          actions={
            <>
              {offer.retry && (
                <Button
                  variant="secondary"
                  onClick={() => {
                    setPin('');
                    dispatch({ type: 'retry' });
                  }}
                >
                  {t('payModal.retry')}
                </Button>
              )}
              <Button onClick={onClose}>{t('payModal.close')}</Button>
            </>
          }
        >
          <p className="pay-stage__text pay-stage__message" data-testid="pay-failed-message">
            {state.message}
          </p>
          {offer.later && <p className="pay-stage__text">{t('payModal.tryLater')}</p>}
        </ResultView>
      )}
      {state.stage === 'held' && state.held && <HeldStage held={state.held} onClose={onClose} />}
      {state.stage === 'details' && state.receipt && (
        <div className="pay-stage pay-stage--details">
          <p className="pay-stage__title">{t('payModal.receiptTitle')}</p>
          <ReceiptView receipt={state.receipt} />
          <div className="pay-stage__actions">
            <ReceiptSlot operationId={state.receipt.id} look="button" />
            <Button variant="secondary" onClick={() => dispatch({ type: 'hideDetails' })}>
              {t('payModal.back')}
            </Button>
            <Button onClick={onClose}>{t('payModal.done')}</Button>
          </div>
        </div>
      )}
    </ModalFrame>
  );
}

function ReceiptAmount({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const amount = formatMoney(receipt.amount.replace(/^-/, ''), receipt.currency_code, currentLanguage());
  // An exchange tells what arrived as well as what left (the receipt's other side is the money in).
  if (receipt.kind === 'exchange' && receipt.counterparty)
    return (
      <p className="pay-stage__amount" data-testid="exchange-result">
        {amount}
        <span className="pay-stage__arrived">{t('payModal.arrived', { amount: receipt.counterparty })}</span>
      </p>
    );
  return <p className="pay-stage__amount">{amount}</p>;
}

/** What is being paid: the amount large, and where it goes below. */
/** The amount and the payee before the PIN; `note` is a line more, such as a fee (docs/decisions/sbp.md#fees). */
export function PaySummary({
  amount,
  currency,
  to,
  note,
}: {
  amount: string;
  currency: string;
  to?: string;
  note?: string;
}) {
  return (
    <div className="pay-summary">
      <p className="pay-summary__amount">{formatMoney(amount, currency, currentLanguage())}</p>
      {to && <p className="pay-summary__to">{to}</p>}
      {note && (
        <p className="pay-summary__to" data-testid="pay-summary-note">
          {note}
        </p>
      )}
    </div>
  );
}
