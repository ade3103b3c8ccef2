/** Refund proposals and approvals: four eyes, a different operator approves. */
import { roleAllows } from '@e-wallet/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useSearchParams } from 'react-router';
import { useAction, useMe, usePagedList } from '../../shared/api/queries.ts';
import { useFormat, useNames } from '../../shared/format/format.ts';
import { ReasonForm } from '../../shared/ui/reason-form.tsx';
import { DataTable, ErrorText, Title } from '../../shared/ui/ui.tsx';
import { ProposeRefund } from './propose-refund.tsx';

interface Refund {
  id: string;
  transfer_id: string;
  transfer_kind: string;
  amount: string;
  currency: string;
  reason: string;
  status: string;
  proposed_by_email: string;
  proposed_at: string;
  decided_by_email: string | null;
}

export function RefundsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const role = useMe().data?.role ?? 'support';
  const [search] = useSearchParams();
  const status = search.get('status') === 'all' ? 'all' : 'proposed';
  const list = usePagedList<Refund>('refunds', { status });
  const approve = useAction('refundApprove');
  const reject = useAction('refundReject');
  const [proposing, setProposing] = useState(false);
  const decides = roleAllows(role, 'refund');
  return (
    <>
      <Title>{t('refunds.title')}</Title>
      <p className="note">{t('refunds.fourEyes')}</p>
      <nav className="tabs" aria-label={t('refunds.title')}>
        <NavLink
          to="/refunds"
          end
          className={() => (status === 'proposed' ? 'active' : '')}
          aria-current={status === 'proposed' ? 'page' : 'false'}
        >
          {t('refunds.proposals')}
        </NavLink>
        <NavLink
          to="/refunds?status=all"
          className={() => (status === 'all' ? 'active' : '')}
          aria-current={status === 'all' ? 'page' : 'false'}
        >
          {t('refunds.all')}
        </NavLink>
      </nav>
      {decides && !proposing && (
        <button type="button" className="secondary" onClick={() => setProposing(true)}>
          {t('users.proposeRefund')}
        </button>
      )}
      {proposing && <ProposeRefund onDone={() => setProposing(false)} />}
      <ErrorText error={list.error ?? approve.error} />
      <DataTable
        caption={t('refunds.title')}
        rows={list.error ? [] : list.rows}
        rowKey={(r) => r.id}
        empty={t('refunds.none')}
        columns={[
          {
            header: t('refunds.date'),
            cell: (r) => format.dateTime(r.proposed_at),
          },
          {
            header: t('refunds.operation'),
            cell: (r) => (
              <>
                {names('kind', r.transfer_kind)} <span className="mono small">{r.transfer_id}</span>
              </>
            ),
          },
          {
            header: t('refunds.amount'),
            cell: (r) => format.money(r.amount, r.currency),
            className: 'number',
          },
          { header: t('refunds.reason'), label: t('refunds.reason'), cell: (r) => r.reason },
          {
            header: t('refunds.proposedBy'),
            cell: (r) => r.proposed_by_email,
          },
          {
            header: t('refunds.status'),
            cell: (r) =>
              `${names('status', r.status)}${r.decided_by_email ? ` · ${r.decided_by_email}` : ''}`,
          },
          {
            header: <span className="sr-only">{t('refunds.approve')}</span>,
            cell: (r) =>
              decides &&
              r.status === 'proposed' && (
                <div className="actions">
                  <button
                    type="button"
                    disabled={approve.isPending}
                    onClick={() => approve.mutate({ params: { id: r.id } })}
                  >
                    {t('refunds.approve')}
                  </button>
                  <ReasonForm
                    action={t('refunds.reject')}
                    danger
                    onSubmit={(reason) => reject.mutateAsync({ params: { id: r.id }, body: { reason } })}
                  />
                </div>
              ),
          },
        ]}
        more={list}
      />
    </>
  );
}
