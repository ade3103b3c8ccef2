/** 'Квитанция' on an operation: opens its receipt. Fills the shared receipt slot. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReceiptSlotProps } from '../../../shared/documents/document-slots.tsx';
import { ReceiptDialog } from './receipt-dialog.tsx';

export function ReceiptButton({ operationId, look = 'link', description }: ReceiptSlotProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={look === 'link' ? 'row-action' : 'button button--secondary'}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={description ? t('documents.receiptOf', { description }) : undefined}
        data-testid="receipt-button"
      >
        <span className="button__label">{t('documents.receipt')}</span>
      </button>
      {open && <ReceiptDialog operationId={operationId} onClose={() => setOpen(false)} />}
    </>
  );
}
