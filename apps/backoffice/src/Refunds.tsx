/** Refund proposals and approvals: four eyes, a different operator approves. */
import { type OperatorRole, roleAllows } from '@e-wallet/contract';
import { useState } from 'react';
import { api } from './api.ts';
import { useLanguage, useT } from './i18n.tsx';
import { ProposeRefund } from './Users.tsx';
import { ApproveOrReject, date, ErrorText, Link, Title, useLoad } from './ui.tsx';

interface Refund {
  id: string;
  transfer_id: string;
  amount: string;
  currency: string;
  reason: string;
  status: string;
  proposed_by_email: string;
  proposed_at: string;
  decided_by_email: string | null;
}

export function Refunds({ role, search }: { role: OperatorRole; search: URLSearchParams }) {
  const t = useT();
  const { language } = useLanguage();
  const status = search.get('status') === 'all' ? 'all' : 'proposed';
  const { data, error, reload } = useLoad(
    () => api<{ refunds: Refund[] }>('GET', `/ops/v1/refunds?status=${status}`),
    [status],
  );
  const [actionError, setActionError] = useState<string | null>(null);
  const [proposing, setProposing] = useState(false);
  const decides = roleAllows(role, 'refund');
  return (
    <main id="main">
      <Title>{t('refunds')}</Title>
      <p className="note">{t('fourEyes')}</p>
      <nav className="tabs" aria-label={t('refunds')}>
        <Link to="/refunds" current={status === 'proposed'}>
          {t('proposals')}
        </Link>
        <Link to="/refunds?status=all" current={status === 'all'}>
          {t('allRefunds')}
        </Link>
      </nav>
      {decides && !proposing && (
        <button type="button" onClick={() => setProposing(true)}>
          {t('proposeRefund')}
        </button>
      )}
      {proposing && (
        <ProposeByHand
          onDone={() => {
            setProposing(false);
            reload();
          }}
        />
      )}
      <ErrorText error={error ?? actionError} />
      {data && data.refunds.length === 0 && <p>{t('noRefunds')}</p>}
      {data && data.refunds.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>{t('date')}</th>
              <th>{t('operation')}</th>
              <th>{t('amount')}</th>
              <th>{t('reason')}</th>
              <th>{t('proposedBy')}</th>
              <th>{t('status')}</th>
              <th>
                <span className="sr-only">{t('approve')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.refunds.map((r) => (
              <tr key={r.id}>
                <td>{date(r.proposed_at, language)}</td>
                <td className="mono">{r.transfer_id}</td>
                <td>
                  {r.amount} {r.currency}
                </td>
                <td>{r.reason}</td>
                <td>{r.proposed_by_email}</td>
                <td>
                  {r.status}
                  {r.decided_by_email ? ` · ${r.decided_by_email}` : ''}
                </td>
                <td>
                  {decides && r.status === 'proposed' && (
                    <ApproveOrReject
                      path={`/ops/v1/refunds/${r.id}`}
                      onDone={reload}
                      onError={setActionError}
                    />
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

function ProposeByHand({ onDone }: { onDone(): void }) {
  const t = useT();
  const [id, setId] = useState('');
  return (
    <div className="panel">
      <label htmlFor="refund-transfer">{t('transferId')}</label>
      <input id="refund-transfer" value={id} onChange={(e) => setId(e.target.value.trim())} />
      {/^[0-9a-f-]{36}$/i.test(id) && <ProposeRefund transferId={id} amount="" onDone={onDone} />}
    </div>
  );
}
