/** The notification URL, its signing secret (rotated on demand) and the delivery log with 'send again'. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-error.ts';
import { formatDate } from '../../../shared/format/date.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { FieldError, TextField } from '../../../shared/ui/text-field.tsx';
import { merchantDeliveriesQuery, rotateSecret, sendAgain, updateMerchant } from '../api/merchants.ts';

export function WebhookPanel({ url, secret }: { url: string | null; secret: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const deliveries = useQuery(merchantDeliveriesQuery);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['merchant'] });
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('notification_url') ?? '').trim();
    setError(null);
    setSaved(false);
    try {
      await updateMerchant({ notification_url: value || null });
      setSaved(true);
      await refresh();
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.answer ? failure.answer.message : t('common.networkError'),
      );
    }
  };
  return (
    <section
      className="panel merchant-panel"
      aria-labelledby="merchant-webhook-title"
      data-testid="merchant-webhook"
    >
      <h2 id="merchant-webhook-title" className="panel__title">
        {t('merchants.webhook')}
      </h2>
      <form className="merchant-form" onSubmit={save}>
        <TextField
          label={t('merchants.notificationUrl')}
          name="notification_url"
          type="url"
          defaultValue={url ?? ''}
        />
        <FieldError message={error} />
        {saved && <p role="status">{t('merchants.saved')}</p>}
        <Button type="submit" variant="secondary">
          {t('merchants.save')}
        </Button>
      </form>
      <p className="merchant-secret">
        {t('merchants.webhookSecret')}: <code data-testid="merchant-webhook-secret">{secret}</code>
      </p>
      <Button
        type="button"
        variant="secondary"
        onClick={async () => {
          await rotateSecret();
          await refresh();
        }}
      >
        {t('merchants.rotate')}
      </Button>
      <h3 className="merchant-subtitle">{t('merchants.deliveries')}</h3>
      <ul className="merchant-list" data-testid="merchant-deliveries">
        {deliveries.data?.results.length === 0 && <li>{t('merchants.noDeliveries')}</li>}
        {deliveries.data?.results.map((delivery) => (
          <li key={delivery.id} className="merchant-list__row">
            <span>
              {delivery.event} · {formatDate(delivery.created_at, language)} ·{' '}
              {t(`merchants.delivery.${delivery.status}`)}
              {delivery.last_status !== null &&
                ` · ${t('merchants.answerCode', { code: delivery.last_status })}`}
            </span>
            <Button
              type="button"
              variant="secondary"
              onClick={async () => {
                await sendAgain(delivery.id).catch(() => undefined);
                await queryClient.invalidateQueries({ queryKey: ['merchant', 'deliveries'] });
              }}
            >
              {t('merchants.sendAgain')}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
