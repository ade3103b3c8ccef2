/**
 * The buttons that open the self-protection dialogs: 'Заблокировать кошелёк' (Settings, profile
 * panel), 'Это не я' on an outgoing operation (history) and on the new-device notification.
 * Other features take them through the shared folder, as they take the identification section.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../api/auth-info.ts';
import { Button } from '../ui/button.tsx';
import { FreezeDialog, ReportDialog } from './security-dialog.tsx';

export function FreezeButton({ block = false }: { block?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const info = useAuthInfo();
  // The dialog stays mounted after the freeze, to say it happened.
  return (
    <>
      {info.data && !info.data.is_frozen && (
        <Button variant="secondary" className="security-freeze" block={block} onClick={() => setOpen(true)}>
          {t('security.freeze')}
        </Button>
      )}
      <FreezeDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** 'Это не я' on one outgoing operation: a reason, then the report (which freezes). */
export function NotMeButton({ operationId, what }: { operationId: string; what: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="row-action row-action--danger"
        aria-label={t('security.notMeOperation', { what })}
        onClick={() => setOpen(true)}
      >
        {t('security.notMe')}
      </button>
      <ReportDialog open={open} onClose={() => setOpen(false)} operationId={operationId} what={what} />
    </>
  );
}

/** 'Это не я' on a sign-in from a new device: no operation to report, so it freezes (ending the sessions). */
export function NotMeDeviceButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const info = useAuthInfo();
  return (
    <>
      {!info.data?.is_frozen && (
        <button type="button" className="row-action row-action--danger" onClick={() => setOpen(true)}>
          {t('security.notMe')}
        </button>
      )}
      <FreezeDialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('security.notMeDeviceTitle')}
        text={t('security.notMeDeviceText')}
      />
    </>
  );
}
