/**
 * The dialogs of self-protection: 'Заблокировать кошелёк' (a confirm) and 'Это не я' (a short
 * reason, then the report, or for a new device a confirm of the freeze). Both end on the frozen state.
 */
import './security.css';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button.tsx';
import { ModalFrame } from '../ui/pay-modal/modal-frame.tsx';
import { useFreeze, useReport } from './security-api.ts';

export interface FreezeDialogProps {
  open: boolean;
  onClose: () => void;
  /** The text above the buttons; the freeze's consequences by default. */
  text?: string;
  title?: string;
}

export function FreezeDialog({ open, onClose, text, title }: FreezeDialogProps) {
  const { t } = useTranslation();
  const freeze = useFreeze();
  const close = () => {
    freeze.reset();
    onClose();
  };
  return (
    <ModalFrame
      open={open}
      // Once frozen, the dialog says so instead of asking again.
      title={freeze.isSuccess ? t('security.frozenTitle') : (title ?? t('security.freezeTitle'))}
      closable={!freeze.isPending}
      onClose={close}
      testId="freeze-dialog"
    >
      <div className="pay-stage security-stage">
        {freeze.isSuccess ? (
          <>
            <p className="security-stage__done" role="status">
              {t('security.frozenText')}
            </p>
            <Button onClick={close}>{t('common.close')}</Button>
          </>
        ) : (
          <>
            <p className="pay-stage__text">{text ?? t('security.freezeText')}</p>
            {freeze.isError && (
              <p className="field__error" role="alert">
                {freeze.error.message}
              </p>
            )}
            <div className="security-stage__actions">
              <Button variant="secondary" onClick={close} disabled={freeze.isPending}>
                {t('security.cancel')}
              </Button>
              <Button onClick={() => freeze.mutate()} busy={freeze.isPending}>
                {t('security.freezeConfirm')}
              </Button>
            </div>
          </>
        )}
      </div>
    </ModalFrame>
  );
}

export interface ReportDialogProps {
  open: boolean;
  onClose: () => void;
  operationId: string;
  /** The operation as a person reads it, such as 'Перевод: Анна С., −500 ₽'. */
  what: string;
}

export function ReportDialog({ open, onClose, operationId, what }: ReportDialogProps) {
  const { t } = useTranslation();
  const report = useReport();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const id = useId();
  const close = () => {
    report.reset();
    setReason('');
    setMissing(false);
    onClose();
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    report.mutate({ id: operationId, reason: reason.trim() });
  }
  const error = missing ? t('security.reasonRequired') : report.isError ? report.error.message : null;
  return (
    <ModalFrame
      open={open}
      title={t('security.notMeTitle')}
      closable={!report.isPending}
      onClose={close}
      testId="report-dialog"
    >
      {report.isSuccess ? (
        <div className="pay-stage security-stage">
          <p className="security-stage__done" role="status">
            {t('security.reported')}
          </p>
          <Button onClick={close}>{t('common.close')}</Button>
        </div>
      ) : (
        <form className="pay-stage security-stage" onSubmit={submit} noValidate>
          <p className="security-stage__what">{what}</p>
          <p className="pay-stage__text">{t('security.notMeText')}</p>
          <div className={`field security-stage__field${error ? ' field--invalid' : ''}`}>
            <label className="field__label" htmlFor={id}>
              {t('security.reasonLabel')}
            </label>
            <textarea
              id={id}
              className="field__input security-stage__reason"
              value={reason}
              maxLength={500}
              rows={3}
              aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
              aria-invalid={error ? true : undefined}
              onChange={(event) => {
                setReason(event.target.value);
                setMissing(false);
              }}
            />
            <p id={`${id}-hint`} className="field__hint">
              {t('security.reasonHint')}
            </p>
            {error && (
              <p id={`${id}-error`} className="field__error" role="alert">
                {error}
              </p>
            )}
          </div>
          <div className="security-stage__actions">
            <Button variant="secondary" onClick={close} disabled={report.isPending}>
              {t('security.cancel')}
            </Button>
            <Button type="submit" busy={report.isPending}>
              {t('security.report')}
            </Button>
          </div>
        </form>
      )}
    </ModalFrame>
  );
}
