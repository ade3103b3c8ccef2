/** Operators (administrators only): the list, a new operator's one-time password and secret, unlocking. */
import { OPERATOR_ROLES } from '@e-wallet/contract';
import { type FormEvent, useState } from 'react';
import { api } from './api.ts';
import { useLanguage, useT } from './i18n.tsx';
import { date, ErrorText, errorText, Title, useLoad } from './ui.tsx';

interface OperatorRow {
  id: string;
  email: string;
  role: string;
  locked_until: string | null;
}

export function Operators() {
  const t = useT();
  const { language } = useLanguage();
  const { data, error, reload } = useLoad(
    () => api<{ operators: OperatorRow[] }>('GET', '/ops/v1/operators'),
    [],
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>('support');
  const [made, setMade] = useState<{ email: string; password: string; totp_secret: string } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setActionError(null);
    try {
      setMade(
        await api<{ email: string; password: string; totp_secret: string }>('POST', '/ops/v1/operators', {
          email,
          role,
        }),
      );
      setEmail('');
      reload();
    } catch (e) {
      setActionError(errorText(e));
    }
  };
  return (
    <main id="main">
      <Title>{t('operators')}</Title>
      <form className="inline" onSubmit={submit} aria-label={t('createOperator')}>
        <label htmlFor="op-email">{t('email')}</label>
        <input id="op-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        <label htmlFor="op-role">{t('role')}</label>
        <select id="op-role" value={role} onChange={(e) => setRole(e.target.value)}>
          {OPERATOR_ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <button type="submit">{t('create')}</button>
      </form>
      {made && (
        <div className="panel" role="status">
          <p>{t('oneTime')}</p>
          <p className="mono">
            {made.email} · {t('password')}: {made.password} · {t('totpSecret')}: {made.totp_secret}
          </p>
        </div>
      )}
      <ErrorText error={error ?? actionError} />
      {data && (
        <table>
          <thead>
            <tr>
              <th>{t('email')}</th>
              <th>{t('role')}</th>
              <th>{t('locked')}</th>
              <th>
                <span className="sr-only">{t('unlock')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.operators.map((o) => (
              <tr key={o.id}>
                <td>{o.email}</td>
                <td>{o.role}</td>
                <td>{date(o.locked_until, language)}</td>
                <td>
                  {o.locked_until && (
                    <button
                      type="button"
                      onClick={async () => {
                        await api('POST', `/ops/v1/operators/${o.id}/unlock`).catch((e) =>
                          setActionError(errorText(e)),
                        );
                        reload();
                      }}
                    >
                      {t('unlock')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
