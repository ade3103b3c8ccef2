/** The audit log: every operator action as a sentence, newest first, filtered by person and operator. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { usePagedList } from '../../shared/api/queries.ts';
import { type AuditLine, AuditLines } from '../../shared/ui/audit-lines.tsx';
import { FieldError } from '../../shared/ui/field-error.tsx';
import { ErrorText, MoreButton, Title } from '../../shared/ui/ui.tsx';

const OptionalId = z.union([
  z.literal(''),
  z
    .string()
    .trim()
    .regex(/^[0-9a-f-]{36}$/i),
]);
const Filter = z.object({ user: OptionalId, operator: OptionalId });

export function AuditPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const user = search.get('user') ?? '';
  const operator = search.get('operator') ?? '';
  const list = usePagedList<AuditLine>('audit', { user, operator });
  const form = useForm({ resolver: zodResolver(Filter), values: { user, operator } });
  const submit = form.handleSubmit((values) =>
    setSearch(Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''))),
  );
  return (
    <>
      <Title>{t('audit.title')}</Title>
      <form className="inline" onSubmit={submit} noValidate>
        <label htmlFor="audit-user">{t('audit.person')}</label>
        <input id="audit-user" className="mono" {...form.register('user')} />
        <label htmlFor="audit-operator">{t('audit.operator')}</label>
        <input id="audit-operator" className="mono" {...form.register('operator')} />
        <button type="submit">{t('audit.filter')}</button>
        <FieldError error={form.formState.errors.user} label={t('audit.person')} />
        <FieldError error={form.formState.errors.operator} label={t('audit.operator')} />
      </form>
      <ErrorText error={list.error} />
      {list.rows ? <AuditLines lines={list.rows} /> : !list.error && <p>{t('app.loading')}</p>}
      <MoreButton list={list} />
    </>
  );
}
