/** A one-field form for an action that needs a reason (freeze, reject, settle, disable...). */
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ErrorText } from './ui.tsx';

const Reason = z.object({ reason: z.string().trim().min(1).max(500) });

export function ReasonForm({
  action,
  label,
  onSubmit,
  danger,
}: {
  action: string;
  label?: string;
  onSubmit(reason: string): Promise<unknown>;
  danger?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const fieldLabel = label ?? t('form.reason');
  const form = useForm({ resolver: zodResolver(Reason), defaultValues: { reason: '' } });
  const submit = form.handleSubmit(async ({ reason }) => {
    try {
      await onSubmit(reason);
      form.reset();
    } catch (error) {
      form.setError('root', { message: error instanceof Error ? error.message : String(error) });
    }
  });
  const fieldError = form.formState.errors.reason;
  return (
    <form className="inline" onSubmit={submit} noValidate>
      <label htmlFor={id}>{fieldLabel}</label>
      <input
        id={id}
        maxLength={500}
        aria-invalid={fieldError ? true : undefined}
        aria-describedby={fieldError ? `${id}-error` : undefined}
        {...form.register('reason')}
      />
      <button type="submit" disabled={form.formState.isSubmitting} className={danger ? 'danger' : undefined}>
        {action}
      </button>
      {fieldError && (
        <p className="error" id={`${id}-error`} role="alert">
          {t('FIELD_REQUIRED', { ns: 'errors', field: fieldLabel })}
        </p>
      )}
      <ErrorText
        error={form.formState.errors.root?.message ? new Error(form.formState.errors.root.message) : null}
      />
    </form>
  );
}
