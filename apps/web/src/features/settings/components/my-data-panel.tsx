/**
 * 'Мои данные': everything the wallet keeps about the person, as JSON or PDF
 * (docs/decisions/account.md#a-persons-account).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-error.ts';
import { pathOf } from '../../../shared/api/client.ts';
import { download } from '../../../shared/api/download.ts';
import { Button } from '../../../shared/ui/button.tsx';

const FORMATS = ['json', 'pdf'] as const;
type Format = (typeof FORMATS)[number];

/** The two downloads and their error: in Settings, and offered first in the closing dialog. */
export function MyDataButtons() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Format | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function fetchFile(format: Format) {
    setPending(format);
    setError(null);
    try {
      await download(pathOf('meExport', undefined, { format }), `e-wallet-my-data.${format}`);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.answer ? failure.answer.message : t('account.export.error'),
      );
    } finally {
      setPending(null);
    }
  }
  return (
    <>
      <div className="settings-my-data__actions">
        {FORMATS.map((format) => (
          <Button
            key={format}
            variant="secondary"
            onClick={() => fetchFile(format)}
            busy={pending === format}
            disabled={!!pending}
          >
            {t(`account.export.${format}`)}
          </Button>
        ))}
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

export function MyDataPanel() {
  const { t } = useTranslation();
  return (
    <section className="panel settings-panel" aria-labelledby="settings-my-data-title" data-testid="my-data">
      <h2 id="settings-my-data-title" className="panel__title">
        {t('account.export.title')}
      </h2>
      <p className="settings-panel__hint">{t('account.export.hint')}</p>
      <MyDataButtons />
    </section>
  );
}
