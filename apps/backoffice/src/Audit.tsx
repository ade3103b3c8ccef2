/** The audit log: every operator action, filtered by person and operator. */
import { type FormEvent, useState } from 'react';
import { api } from './api.ts';
import { useLanguage, useT } from './i18n.tsx';
import { date, ErrorText, navigate, Title, useLoad } from './ui.tsx';

interface AuditRow {
  id: string;
  at: string;
  operator_email: string;
  action: string;
  object_type: string | null;
  object_id: string | null;
  before: unknown;
  after: unknown;
}

const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

export function AuditTable({ rows }: { rows: AuditRow[] }) {
  const t = useT();
  const { language } = useLanguage();
  if (rows.length === 0) return <p>—</p>;
  return (
    <table className="audit">
      <thead>
        <tr>
          <th>{t('when')}</th>
          <th>{t('who')}</th>
          <th>{t('what')}</th>
          <th>{t('object')}</th>
          <th>{t('before')}</th>
          <th>{t('after')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td>{date(row.at, language)}</td>
            <td>{row.operator_email}</td>
            <td>{row.action}</td>
            <td className="mono">{row.object_type ? `${row.object_type} ${row.object_id ?? ''}` : '—'}</td>
            <td className="mono">{json(row.before)}</td>
            <td className="mono">{json(row.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Audit({ search }: { search: URLSearchParams }) {
  const t = useT();
  const user = search.get('user') ?? '';
  const operator = search.get('operator') ?? '';
  const [userText, setUser] = useState(user);
  const [operatorText, setOperator] = useState(operator);
  const { data, error } = useLoad(() => {
    const query = new URLSearchParams();
    if (user) query.set('user', user);
    if (operator) query.set('operator', operator);
    return api<{ audit: AuditRow[] }>('GET', `/ops/v1/audit?${query}`);
  }, [user, operator]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams();
    if (userText.trim()) query.set('user', userText.trim());
    if (operatorText.trim()) query.set('operator', operatorText.trim());
    navigate(`/audit?${query}`);
  };
  return (
    <main id="main">
      <Title>{t('audit')}</Title>
      <form className="inline" onSubmit={submit}>
        <label htmlFor="audit-user">{t('userId')}</label>
        <input id="audit-user" value={userText} onChange={(e) => setUser(e.target.value)} />
        <label htmlFor="audit-operator">{t('operatorId')}</label>
        <input id="audit-operator" value={operatorText} onChange={(e) => setOperator(e.target.value)} />
        <button type="submit">{t('filter')}</button>
      </form>
      <ErrorText error={error} />
      {data ? <AuditTable rows={data.audit} /> : !error && <p>{t('loading')}</p>}
    </main>
  );
}
