/** The user search and the user's card: profile, accounts, sessions, operations, reports, audit, freeze. */
import { type OperatorRole, roleAllows } from '@e-wallet/contract';
import { type FormEvent, useState } from 'react';
import { AuditTable } from './Audit.tsx';
import { api } from './api.ts';
import { useLanguage, useName, useT } from './i18n.tsx';
import { date, ErrorText, errorText, Link, navigate, ReasonForm, Title, useLoad } from './ui.tsx';

interface User {
  id: string;
  first_name: string;
  last_name: string;
  phone: string;
  email: string;
  level: string;
  frozen_by: 'self' | 'operator' | null;
  created_at: string;
}

function FrozenText({ user }: { user: User }) {
  const t = useT();
  if (user.frozen_by === 'self') return <span className="badge warn">{t('frozenSelf')}</span>;
  if (user.frozen_by === 'operator') return <span className="badge danger">{t('frozenOperator')}</span>;
  return <span className="badge">{t('active')}</span>;
}

export function UserSearch({ query }: { query: string }) {
  const t = useT();
  const name = useName();
  const [text, setText] = useState(query);
  const { data, error } = useLoad(
    () =>
      query
        ? api<{ users: User[] }>('GET', `/ops/v1/users?query=${encodeURIComponent(query)}`)
        : Promise.resolve(null),
    [query],
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/users?query=${encodeURIComponent(text.trim())}`);
  };
  return (
    <main id="main">
      <Title>{t('navUsers')}</Title>
      <form className="inline" onSubmit={submit}>
        <label htmlFor="user-query">{t('searchLabel')}</label>
        <input id="user-query" value={text} onChange={(e) => setText(e.target.value)} required />
        <button type="submit">{t('search')}</button>
      </form>
      <ErrorText error={error} />
      {data && data.users.length === 0 && <p>{t('nothingFound')}</p>}
      {data && data.users.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>{t('name')}</th>
              <th>{t('phone')}</th>
              <th>{t('email')}</th>
              <th>{t('level')}</th>
              <th>{t('status')}</th>
            </tr>
          </thead>
          <tbody>
            {data.users.map((user) => (
              <tr key={user.id}>
                <td>
                  <Link to={`/users/${user.id}`}>
                    {user.last_name} {user.first_name}
                  </Link>
                </td>
                <td>{user.phone}</td>
                <td>{user.email}</td>
                <td>{name('level', user.level)}</td>
                <td>
                  <FrozenText user={user} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

interface Card {
  user: User;
  accounts: Array<{ id: string; currency: string; balance: string; available: string }>;
  sessions: Array<{ id: string; user_agent: string; ip: string; last_used_at: string }>;
  operations: Array<{
    transfer_id: string;
    kind: string;
    amount: string;
    currency: string;
    status: string;
    created_at: string;
    description: string | null;
  }>;
  reports: Array<{ id: string; transfer_id: string; reason: string; status: string; created_at: string }>;
  audit: Parameters<typeof AuditTable>[0]['rows'];
}

export function UserCard({ id, role }: { id: string; role: OperatorRole }) {
  const t = useT();
  const name = useName();
  const { language } = useLanguage();
  const { data, error, reload } = useLoad(() => api<Card>('GET', `/ops/v1/users/${id}`), [id]);
  const [refundOf, setRefundOf] = useState<Card['operations'][number] | null>(null);
  if (!data) return <main id="main">{error ? <ErrorText error={error} /> : <p>{t('loading')}</p>}</main>;
  const { user } = data;
  return (
    <main id="main">
      <p>
        <Link to="/users">← {t('back')}</Link>
      </p>
      <Title>
        {user.last_name} {user.first_name}
      </Title>
      <dl className="facts">
        <dt>{t('phone')}</dt>
        <dd>{user.phone}</dd>
        <dt>{t('email')}</dt>
        <dd>{user.email}</dd>
        <dt>{t('level')}</dt>
        <dd data-testid="user-level">{name('level', user.level)}</dd>
        <dt>{t('status')}</dt>
        <dd data-testid="user-status">
          <FrozenText user={user} />
        </dd>
      </dl>

      <section aria-labelledby="freeze-title">
        <h2 id="freeze-title">{t('freezeTitle')}</h2>
        {user.frozen_by !== 'operator' && roleAllows(role, 'freeze') && (
          <ReasonForm
            action="freeze"
            danger
            onSubmit={async (reason) => {
              await api('POST', `/ops/v1/users/${id}/freeze`, { reason });
              reload();
            }}
          />
        )}
        {user.frozen_by !== null && roleAllows(role, 'unfreeze') && (
          <ReasonForm
            action="unfreeze"
            onSubmit={async (reason) => {
              await api('POST', `/ops/v1/users/${id}/unfreeze`, { reason });
              reload();
            }}
          />
        )}
      </section>

      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title">{t('accounts')}</h2>
        <table>
          <thead>
            <tr>
              <th>{t('currency')}</th>
              <th>{t('balance')}</th>
              <th>{t('available')}</th>
            </tr>
          </thead>
          <tbody>
            {data.accounts.map((a) => (
              <tr key={a.id}>
                <td>{a.currency}</td>
                <td data-testid={`balance-${a.currency}`}>{a.balance}</td>
                <td>{a.available}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="operations-title">
        <h2 id="operations-title">{t('operations')}</h2>
        <table>
          <thead>
            <tr>
              <th>{t('date')}</th>
              <th>{t('kind')}</th>
              <th>{t('amount')}</th>
              <th>{t('description')}</th>
              <th>{t('status')}</th>
              <th>
                <span className="sr-only">{t('proposeRefund')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.operations.map((o) => (
              <tr key={`${o.transfer_id}-${o.amount}`}>
                <td>{date(o.created_at, language)}</td>
                <td>{o.kind}</td>
                <td>
                  {o.amount} {o.currency}
                </td>
                <td>{o.description ?? '—'}</td>
                <td>{o.status}</td>
                <td>
                  {roleAllows(role, 'refund') && o.status === 'posted' && o.kind !== 'refund' && (
                    <button type="button" onClick={() => setRefundOf(o)}>
                      {t('proposeRefund')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {refundOf && (
          <ProposeRefund
            transferId={refundOf.transfer_id}
            amount={refundOf.amount.replace(/^-/, '')}
            onDone={() => setRefundOf(null)}
          />
        )}
      </section>

      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">{t('sessions')}</h2>
        <table>
          <thead>
            <tr>
              <th>{t('device')}</th>
              <th>IP</th>
              <th>{t('lastUsed')}</th>
            </tr>
          </thead>
          <tbody>
            {data.sessions.map((s) => (
              <tr key={s.id}>
                <td>{s.user_agent || '—'}</td>
                <td>{s.ip}</td>
                <td>{date(s.last_used_at, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="reports-title">
        <h2 id="reports-title">{t('reports')}</h2>
        {data.reports.length === 0 ? (
          <p>—</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>{t('date')}</th>
                <th>{t('operation')}</th>
                <th>{t('reason')}</th>
                <th>{t('status')}</th>
                <th>
                  <span className="sr-only">{t('closeReport')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.reports.map((r) => (
                <tr key={r.id}>
                  <td>{date(r.created_at, language)}</td>
                  <td className="mono">{r.transfer_id}</td>
                  <td>{r.reason}</td>
                  <td>{r.status}</td>
                  <td>
                    {r.status === 'open' && roleAllows(role, 'freeze') && (
                      <ReasonForm
                        action="closeReport"
                        label="finding"
                        onSubmit={async (reason) => {
                          await api('POST', `/ops/v1/reports/${r.id}/close`, { reason });
                          reload();
                        }}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="audit-title">
        <h2 id="audit-title">{t('audit')}</h2>
        <AuditTable rows={data.audit} />
      </section>
    </main>
  );
}

export function ProposeRefund({
  transferId,
  amount,
  onDone,
}: {
  transferId: string;
  amount: string;
  onDone(): void;
}) {
  const t = useT();
  const [value, setValue] = useState(amount);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('POST', '/ops/v1/refunds', { transfer_id: transferId, amount: value, reason });
      setMade(true);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="refund-title">
      <h3 id="refund-title">{t('proposeRefundTitle')}</h3>
      <p className="mono">{transferId}</p>
      <p className="note">{t('fourEyes')}</p>
      <label htmlFor="refund-amount">{t('amount')}</label>
      <input id="refund-amount" value={value} onChange={(e) => setValue(e.target.value)} required />
      <label htmlFor="refund-reason">{t('reason')}</label>
      <input id="refund-reason" value={reason} onChange={(e) => setReason(e.target.value)} required />
      <ErrorText error={error} />
      {made ? (
        <p role="status">
          {t('done')}{' '}
          <button type="button" onClick={onDone}>
            OK
          </button>
        </p>
      ) : (
        <button type="submit">{t('propose')}</button>
      )}
    </form>
  );
}
