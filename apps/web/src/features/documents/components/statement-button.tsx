/** 'Выписка' on the history and account pages: opens the statement dialog. Fills the shared slot. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatementSlotProps } from '../../../shared/documents/document-slots.tsx';
import { StatementDialog } from './statement-dialog.tsx';

export function StatementButton({ accountId, accountLabel }: StatementSlotProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--secondary statement-button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        data-testid="statement-button"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z" />
          <path d="M14 3v6h6M8 13h8M8 17h5" strokeLinecap="round" />
        </svg>
        <span className="button__label">{t('documents.statement')}</span>
      </button>
      {open && (
        <StatementDialog accountId={accountId} accountLabel={accountLabel} onClose={() => setOpen(false)} />
      )}
    </>
  );
}
