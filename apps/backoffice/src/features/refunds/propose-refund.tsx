/** Proposing a correcting transfer of an operation; another operator approves it (four eyes). */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useAction } from '../../shared/api/queries.ts';
import { FieldError } from '../../shared/ui/field-error.tsx';
import { ErrorText } from '../../shared/ui/ui.tsx';

const Proposal = z.object({
  transfer_id: z
    .string()
    .trim()
    .regex(/^[0-9a-f-]{36}$/i),
  amount: z
    .string()
    .trim()
    .regex(/^\d+([.,]\d{1,2})?$/),
  reason: z.string().trim().min(1).max(500),
});
type Proposal = z.infer<typeof Proposal>;

export function ProposeRefund({
  transferId,
  amount,
  onDone,
}: {
  transferId?: string;
  amount?: string;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const propose = useAction('refundPropose');
  const form = useForm<Proposal>({
    resolver: zodResolver(Proposal),
    defaultValues: { transfer_id: transferId ?? '', amount: amount ?? '', reason: '' },
  });
  const submit = form.handleSubmit((values) =>
    propose.mutateAsync({ body: { ...values, amount: values.amount.replace(',', '.') } }).catch(() => {}),
  );
  const { errors } = form.formState;
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="refund-title" noValidate>
      <h3 id="refund-title">{t('refunds.proposeTitle')}</h3>
      <p className="note">{t('refunds.fourEyes')}</p>
      <label htmlFor="refund-transfer">{t('refunds.transferId')}</label>
      <input
        id="refund-transfer"
        className="mono"
        readOnly={!!transferId}
        {...form.register('transfer_id')}
      />
      <FieldError error={errors.transfer_id} label={t('refunds.transferId')} />
      <label htmlFor="refund-amount">{t('refunds.amount')}</label>
      <input id="refund-amount" inputMode="decimal" {...form.register('amount')} />
      <FieldError error={errors.amount} label={t('refunds.amount')} />
      <label htmlFor="refund-reason">{t('refunds.reason')}</label>
      <input id="refund-reason" {...form.register('reason')} />
      <FieldError error={errors.reason} label={t('refunds.reason')} />
      <ErrorText error={propose.error} />
      {propose.isSuccess ? (
        <p role="status">
          {t('refunds.proposed')}{' '}
          <button type="button" className="secondary" onClick={onDone}>
            {t('app.done')}
          </button>
        </p>
      ) : (
        <button type="submit" disabled={propose.isPending}>
          {t('refunds.propose')}
        </button>
      )}
    </form>
  );
}
