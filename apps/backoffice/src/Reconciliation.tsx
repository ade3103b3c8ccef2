/** Reconciliation of a day: each provider's records against the ledger, every difference listed. */
import { type FormEvent, useState } from 'react';
import { api } from './api.ts';
import { type TextKey, useT } from './i18n.tsx';
import { ErrorText, navigate, Title, useLoad } from './ui.tsx';

interface Answer {
  providers: Array<{
    provider: string;
    kind: 'topups' | 'payouts';
    listed: boolean;
    provider_records: number | null;
    ledger_records: number;
  }>;
  differences: Array<{
    provider: string;
    kind: 'topups' | 'payouts';
    problem: TextKey;
    reference: string | null;
    provider_amount: string | null;
    provider_status: string | null;
    ledger_amount: string | null;
    ledger_status: string | null;
  }>;
}

function today(): string {
  // The wallet's day is Moscow's.
  return new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
}

export function Reconciliation({ search }: { search: URLSearchParams }) {
  const t = useT();
  const day = search.get('date') ?? today();
  const [text, setText] = useState(day);
  const { data, error } = useLoad(() => api<Answer>('GET', `/ops/v1/reconciliation?date=${day}`), [day]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/reconciliation?date=${text}`);
  };
  const kind = (k: 'topups' | 'payouts') => t(k === 'topups' ? 'topups' : 'payoutsKind');
  return (
    <main id="main">
      <Title>{t('reconciliation')}</Title>
      <form className="inline" onSubmit={submit}>
        <label htmlFor="reconcile-date">{t('day')}</label>
        <input
          id="reconcile-date"
          type="date"
          value={text}
          onChange={(e) => setText(e.target.value)}
          required
        />
        <button type="submit">{t('compare')}</button>
      </form>
      <ErrorText error={error} />
      {data && (
        <>
          <table>
            <thead>
              <tr>
                <th>{t('provider')}</th>
                <th>{t('kind')}</th>
                <th>{t('records')}</th>
                <th>{t('ledgerRecords')}</th>
              </tr>
            </thead>
            <tbody>
              {data.providers.map((p) => (
                <tr key={`${p.provider}-${p.kind}`}>
                  <td>{p.provider}</td>
                  <td>{kind(p.kind)}</td>
                  <td>{p.listed ? p.provider_records : t('notListed')}</td>
                  <td>{p.ledger_records}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>{t('differences')}</h2>
          {data.differences.length === 0 ? (
            <p role="status">{t('noDifferences')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>{t('provider')}</th>
                  <th>{t('kind')}</th>
                  <th>{t('problem')}</th>
                  <th>{t('reference')}</th>
                  <th>{t('providerSide')}</th>
                  <th>{t('ledgerSide')}</th>
                </tr>
              </thead>
              <tbody>
                {data.differences.map((d) => (
                  <tr key={`${d.kind}-${d.problem}-${d.reference}`}>
                    <td>{d.provider}</td>
                    <td>{kind(d.kind)}</td>
                    <td>{t(d.problem)}</td>
                    <td className="mono">{d.reference ?? '—'}</td>
                    <td>{d.provider_amount ? `${d.provider_amount} · ${d.provider_status}` : '—'}</td>
                    <td>{d.ledger_amount ? `${d.ledger_amount} · ${d.ledger_status}` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </main>
  );
}
