/**
 * 'Квитанция' of one operation: its rows, the QR code of its public verify link, and what a
 * person does with it: download the PDF, share the link (Web Share API where the browser has it,
 * otherwise copy it to the clipboard).
 */
import '../../../shared/ui/pay-modal/pay-modal.css';
import '../documents.css';
import QRCode from 'qrcode';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date.ts';
import { formatMoney, formatSignedMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { ModalFrame } from '../../../shared/ui/pay-modal/modal-frame.tsx';
import { type DocumentReceipt, downloadReceiptPdf, useReceipt } from '../api/documents.ts';

function useQrImage(text: string | undefined): string | null {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    if (!text) return;
    QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 320 })
      .then((url) => current && setImage(url))
      .catch(() => current && setImage(null));
    return () => {
      current = false;
    };
  }, [text]);
  return image;
}

function ReceiptRows({ receipt }: { receipt: DocumentReceipt }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const rows: [string, ReactNode, string][] = [
    [t('documents.rows.kind'), receipt.description, 'kind'],
    [
      t('documents.rows.amount'),
      formatSignedMoney(receipt.amount, receipt.currency_code, language),
      'amount',
    ],
    [
      t('documents.rows.status'),
      <span key="status" className={`receipt__status receipt__status--${receipt.status}`}>
        {t(`documents.statuses.${receipt.status}`)}
      </span>,
      'status',
    ],
    [t('documents.rows.date'), formatDateTime(receipt.created_at, language), 'date'],
  ];
  if (receipt.counterparty)
    rows.push([t('documents.rows.counterparty'), receipt.counterparty, 'counterparty']);
  rows.push([t('documents.rows.fee'), formatMoney(receipt.fee, receipt.currency_code, language), 'fee']);
  rows.push([
    t('documents.rows.balanceAfter'),
    formatMoney(receipt.balance_after, receipt.currency_code, language),
    'balance',
  ]);
  rows.push([
    t('documents.rows.number'),
    <span key="id" className="receipt__id">
      {receipt.id}
    </span>,
    'number',
  ]);
  return (
    <dl className="receipt__rows">
      {rows.map(([name, value, id]) => (
        <div key={id} className="receipt__row" data-testid={`document-receipt-${id}`}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ReceiptDialog({ operationId, onClose }: { operationId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const receipt = useReceipt(operationId, true);
  const qr = useQrImage(receipt.data?.verify_url);
  const [notice, setNotice] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    setNotice(null);
    try {
      await downloadReceiptPdf(operationId);
    } catch (error) {
      setNotice((error as Error).message || t('documents.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const share = async (data: DocumentReceipt) => {
    setNotice(null);
    if (canShare) {
      try {
        await navigator.share({
          title: t('documents.receiptTitle'),
          text: data.description,
          url: data.verify_url,
        });
      } catch {
        // The person closed the share sheet: nothing to say.
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(data.verify_url);
      setNotice(t('documents.copied'));
    } catch {
      setNotice(t('documents.copyFailed', { url: data.verify_url }));
    }
  };

  return (
    <ModalFrame
      open
      title={t('documents.receiptTitle')}
      closable
      onClose={onClose}
      testId="receipt-dialog"
      focusKey={receipt.status}
    >
      <div className="pay-stage pay-stage--details document-receipt">
        {receipt.isPending && (
          <p className="area-state" role="status">
            {t('documents.loading')}
          </p>
        )}
        {receipt.isError && (
          <p className="area-state area-state--error" role="alert">
            {receipt.error.message || t('documents.error')}
          </p>
        )}
        {receipt.data && (
          <>
            <div className="receipt">
              <ReceiptRows receipt={receipt.data} />
            </div>
            <div className="document-receipt__verify">
              {qr && (
                <img
                  className="document-receipt__qr"
                  src={qr}
                  alt={t('documents.qrAlt')}
                  data-testid="receipt-qr"
                />
              )}
              <div className="document-receipt__verify-text">
                <p className="document-receipt__verify-title">{t('documents.verify')}</p>
                <p className="document-receipt__hint">{t('documents.verifyHint')}</p>
                <a
                  className="document-receipt__link"
                  href={receipt.data.verify_url}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="verify-url"
                >
                  {receipt.data.verify_url}
                </a>
              </div>
            </div>
            {notice && (
              <p className="document-receipt__notice" role="status">
                {notice}
              </p>
            )}
            <div className="pay-stage__actions">
              <Button variant="secondary" onClick={() => share(receipt.data)}>
                {canShare ? t('documents.share') : t('documents.copy')}
              </Button>
              <Button onClick={download} busy={downloading}>
                {t('documents.downloadPdf')}
              </Button>
            </div>
          </>
        )}
      </div>
    </ModalFrame>
  );
}
