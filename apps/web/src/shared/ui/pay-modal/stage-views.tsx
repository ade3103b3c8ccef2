/** The views of the modal's stages, shared by the pay modal and the top-up result page. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/date.ts';
import { formatMoney } from '../../format/money.ts';
import { useName } from '../../format/person-name.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { readableCardMasks } from '../../money/transaction-display.ts';
import type { Receipt } from './pay-outcome.ts';

/** 'Ожидание / Не закрывайте страницу' with a spinner, announced politely. */
export function WaitingView({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="pay-stage pay-stage--waiting" role="status" aria-live="polite">
      <span className="pay-stage__spinner" aria-hidden="true" />
      <p className="pay-stage__title">{t('payModal.waitingTitle')}</p>
      <p className="pay-stage__text">{t('payModal.waitingText')}</p>
      {children}
    </div>
  );
}

export function ResultView({
  tone,
  title,
  children,
  actions,
}: {
  tone: 'success' | 'failed' | 'held';
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className={`pay-stage pay-stage--${tone}`} role={tone === 'failed' ? 'alert' : 'status'}>
      <span className="pay-stage__mark" aria-hidden="true">
        {tone === 'held' ? (
          <svg aria-hidden="true" viewBox="0 0 48 48" width="48" height="48" fill="currentColor">
            <rect x="15" y="13" width="6" height="22" rx="2" />
            <rect x="27" y="13" width="6" height="22" rx="2" />
          </svg>
        ) : tone === 'success' ? (
          <svg
            aria-hidden="true"
            viewBox="0 0 48 48"
            width="48"
            height="48"
            fill="none"
            stroke="currentColor"
            strokeWidth="4"
          >
            <path d="M13 25l7 7 15-16" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        ) : (
          <svg
            aria-hidden="true"
            viewBox="0 0 48 48"
            width="48"
            height="48"
            fill="none"
            stroke="currentColor"
            strokeWidth="4"
          >
            <path d="M16 16l16 16M32 16L16 32" strokeLinecap="round" />
          </svg>
        )}
      </span>
      <p className="pay-stage__title">{title}</p>
      {children}
      {actions && <div className="pay-stage__actions">{actions}</div>}
    </div>
  );
}

/**
 * The receipt of the operation (docs/decisions/placeholders-and-defects.md#placeholders-become-real-features:
 * the real one, not a sample).
 */
export function ReceiptView({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const rows: [string, ReactNode, string?][] = [
    // A payout with no card is an СБП transfer: its description names the bank and the masked phone
    // (docs/decisions/sbp.md#sending-by-sbp).
    [
      t('payModal.receipt.kind'),
      receipt.kind === 'withdrawal' && !receipt.card
        ? receipt.description
        : t(`payModal.kinds.${receipt.kind}`),
    ],
    [
      t('payModal.receipt.amount'),
      formatMoney(receipt.amount.replace(/^-/, ''), receipt.currency_code, language),
    ],
  ];
  if (receipt.fee)
    rows.push([t('payModal.receipt.fee'), formatMoney(receipt.fee, receipt.currency_code, language)]);
  if (receipt.card) rows.push([t('payModal.receipt.card'), readableCardMasks(receipt.card)]);
  // An exchange's other side is the money that arrived in the person's own account.
  if (receipt.counterparty)
    rows.push([
      t(receipt.kind === 'exchange' ? 'payModal.receipt.credited' : 'payModal.receipt.counterparty'),
      receipt.kind === 'exchange' ? receipt.counterparty : named(receipt.counterparty),
    ]);
  rows.push([
    t('payModal.receipt.status'),
    <span key="status" className={`receipt__status receipt__status--${receipt.status}`}>
      {t(`payModal.statuses.${receipt.status}`)}
    </span>,
    'receipt-status',
  ]);
  if (receipt.failure_reason) rows.push([t('payModal.receipt.reason'), receipt.failure_reason]);
  rows.push([t('payModal.receipt.date'), formatDateTime(receipt.created_at, language)]);
  rows.push([
    t('payModal.receipt.number'),
    <span key="id" className="receipt__id">
      {receipt.id}
    </span>,
  ]);
  return (
    <div className="receipt" data-testid="receipt">
      <dl className="receipt__rows">
        {rows.map(([name, value, testId]) => (
          <div key={name} className="receipt__row" data-testid={testId}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {receipt.status === 'pending' && <p className="receipt__note">{t('payModal.pendingNote')}</p>}
    </div>
  );
}
