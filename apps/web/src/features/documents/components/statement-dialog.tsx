/**
 * 'Выписка': the person chooses an account, a period (presets or their own dates) and a format,
 * and downloads the statement the server streams.
 */
import '../../../shared/ui/pay-modal/pay-modal.css';
import '../documents.css';
import { endOfMonth, format, startOfMonth, startOfYear, subMonths } from 'date-fns';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccounts } from '../../../shared/api/wallet.ts';
import type { StatementSlotProps } from '../../../shared/documents/document-slots.tsx';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { ModalFrame } from '../../../shared/ui/pay-modal/modal-frame.tsx';
import { downloadStatement } from '../api/documents.ts';

const PRESETS = ['thisMonth', 'lastMonth', 'last3Months', 'thisYear', 'custom'] as const;
type Preset = (typeof PRESETS)[number];

const day = (date: Date) => format(date, 'yyyy-MM-dd');

/** A preset as the statement's dates (a day each, the last one included). */
export function presetDates(preset: Exclude<Preset, 'custom'>, now: Date): { from: string; to: string } {
  switch (preset) {
    case 'thisMonth':
      return { from: day(startOfMonth(now)), to: day(now) };
    case 'lastMonth': {
      const month = subMonths(now, 1);
      return { from: day(startOfMonth(month)), to: day(endOfMonth(month)) };
    }
    case 'last3Months':
      return { from: day(startOfMonth(subMonths(now, 2))), to: day(now) };
    case 'thisYear':
      return { from: day(startOfYear(now)), to: day(now) };
  }
}

export function StatementDialog({
  accountId,
  accountLabel,
  onClose,
}: StatementSlotProps & { onClose: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const accounts = useAccounts();
  const ids = { account: useId(), from: useId(), to: useId() };
  const [chosen, setChosen] = useState<string | null>(accountId ?? null);
  const [preset, setPreset] = useState<Preset>('thisMonth');
  const [custom, setCustom] = useState(() => presetDates('thisMonth', new Date()));
  const [fileFormat, setFileFormat] = useState<'pdf' | 'csv'>('pdf');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  const account = chosen ?? accounts.data?.[0]?.id ?? null;
  const dates = preset === 'custom' ? custom : presetDates(preset, new Date());

  const submit = async () => {
    if (!account) return;
    setBusy(true);
    setMessage(null);
    try {
      await downloadStatement({ account, date_from: dates.from, date_to: dates.to, format: fileFormat });
      setMessage({ tone: 'ok', text: t('documents.downloaded') });
    } catch (error) {
      setMessage({ tone: 'error', text: (error as Error).message || t('documents.downloadFailed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <ModalFrame
      open
      title={t('documents.statementTitle')}
      closable
      onClose={onClose}
      testId="statement-dialog"
    >
      <form
        className="pay-stage pay-stage--details statement-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="pay-stage__text">{t('documents.statementText')}</p>
        <label className="statement-form__field" htmlFor={ids.account}>
          <span className="statement-form__label">{t('documents.account')}</span>
          <select
            id={ids.account}
            className="statement-form__select"
            value={account ?? ''}
            onChange={(event) => setChosen(event.target.value)}
            disabled={!accounts.data?.length || accountLabel !== undefined}
          >
            {accountLabel !== undefined && accountId && <option value={accountId}>{accountLabel}</option>}
            {accountLabel === undefined &&
              accounts.data?.map((option) => (
                <option key={option.id} value={option.id}>
                  {t('documents.accountOption', {
                    currency: option.currency_code,
                    balance: formatMoney(option.balance, option.currency_code, language),
                  })}
                </option>
              ))}
          </select>
        </label>
        <fieldset className="statement-form__group">
          <legend className="statement-form__label">{t('documents.period')}</legend>
          <div className="statement-form__chips">
            {PRESETS.map((name) => (
              <label key={name} className="statement-chip">
                <input
                  type="radio"
                  name="statement-period"
                  value={name}
                  checked={preset === name}
                  onChange={() => setPreset(name)}
                />
                <span>{t(`documents.presets.${name}`)}</span>
              </label>
            ))}
          </div>
          {preset === 'custom' && (
            <div className="statement-form__dates">
              <label htmlFor={ids.from}>
                <span className="statement-form__label">{t('documents.from')}</span>
                <input
                  id={ids.from}
                  type="date"
                  className="statement-form__date"
                  value={custom.from}
                  max={custom.to}
                  onChange={(event) => setCustom({ ...custom, from: event.target.value })}
                  required
                />
              </label>
              <label htmlFor={ids.to}>
                <span className="statement-form__label">{t('documents.to')}</span>
                <input
                  id={ids.to}
                  type="date"
                  className="statement-form__date"
                  value={custom.to}
                  min={custom.from}
                  max={day(new Date())}
                  onChange={(event) => setCustom({ ...custom, to: event.target.value })}
                  required
                />
              </label>
            </div>
          )}
        </fieldset>
        <fieldset className="statement-form__group">
          <legend className="statement-form__label">{t('documents.format')}</legend>
          <div className="statement-form__formats">
            {(['pdf', 'csv'] as const).map((name) => (
              <label key={name} className="statement-chip statement-chip--wide">
                <input
                  type="radio"
                  name="statement-format"
                  value={name}
                  checked={fileFormat === name}
                  onChange={() => setFileFormat(name)}
                />
                <span>{t(`documents.formats.${name}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        {message && (
          <p
            className={`document-receipt__notice document-receipt__notice--${message.tone}`}
            role={message.tone === 'error' ? 'alert' : 'status'}
          >
            {message.text}
          </p>
        )}
        {!accounts.isPending && !account && <p className="area-state">{t('documents.noAccounts')}</p>}
        <div className="pay-stage__actions">
          <Button type="submit" block busy={busy} disabled={!account}>
            {t('documents.download')}
          </Button>
        </div>
      </form>
    </ModalFrame>
  );
}
