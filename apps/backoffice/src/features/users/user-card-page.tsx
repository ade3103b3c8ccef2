/** A person's card: profile, freeze, accounts, operations (with a refund proposal), sessions, reports, the audit of them. */
import { roleAllows } from '@e-wallet/contract';
import { useQuery } from '@tanstack/react-query';
import { type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { opsCall } from '../../shared/api/client.ts';
import type { Card, Operation } from '../../shared/api/people.ts';
import { useAction, useMe } from '../../shared/api/queries.ts';
import { useFormat, useNames } from '../../shared/format/format.ts';
import { AuditLines } from '../../shared/ui/audit-lines.tsx';
import { ReasonForm } from '../../shared/ui/reason-form.tsx';
import { DataTable, ErrorText, Facts, Title } from '../../shared/ui/ui.tsx';
import { FrozenBadge } from './frozen-badge.tsx';

/** The refunds feature's form for an operation, given by the app (features never import one another). */
export type RefundForm = ComponentType<{ transferId: string; amount: string; onDone(): void }>;

export function UserCardPage({ RefundForm }: { RefundForm: RefundForm }) {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const role = useMe().data?.role ?? 'support';
  const card = useQuery({ queryKey: ['user', id], queryFn: () => opsCall<Card>('user', { params: { id } }) });
  const freeze = useAction('freeze');
  const unfreeze = useAction('unfreeze');
  const closeReport = useAction('reportClose');
  const [refundOf, setRefundOf] = useState<Operation | null>(null);
  if (!card.data) return card.error ? <ErrorText error={card.error} /> : <p>{t('app.loading')}</p>;
  const { user } = card.data;
  return (
    <>
      <p>
        <Link to="/users">← {t('users.back')}</Link>
      </p>
      <Title>
        {user.last_name} {user.first_name}
      </Title>
      <Facts
        items={[
          [t('users.phone'), format.phone(user.phone)],
          [t('users.email'), user.email],
          [
            t('users.level'),
            <span key="level" data-testid="user-level">
              {names('level', user.level)}
            </span>,
          ],
          [
            t('users.status'),
            <span key="status" data-testid="user-status">
              <FrozenBadge user={user} />
            </span>,
          ],
          [t('users.registered'), format.dateTime(user.created_at)],
        ]}
      />

      <section aria-labelledby="freeze-title">
        <h2 id="freeze-title">{t('users.freezeTitle')}</h2>
        {user.frozen_by !== 'operator' && roleAllows(role, 'freeze') && (
          <ReasonForm
            action={t('users.freeze')}
            danger
            onSubmit={(reason) => freeze.mutateAsync({ params: { id }, body: { reason } })}
          />
        )}
        {user.frozen_by !== null && roleAllows(role, 'unfreeze') && (
          <ReasonForm
            action={t('users.unfreeze')}
            onSubmit={(reason) => unfreeze.mutateAsync({ params: { id }, body: { reason } })}
          />
        )}
      </section>

      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title">{t('users.accounts')}</h2>
        <DataTable
          rows={card.data.accounts}
          rowKey={(account) => account.id}
          columns={[
            { header: t('users.currency'), label: t('users.currency'), cell: (a) => a.currency },
            {
              header: t('users.balance'),
              label: t('users.balance'),
              cell: (a) => (
                <span data-testid={`balance-${a.currency}`}>{format.money(a.balance, a.currency)}</span>
              ),
              className: 'number',
            },
            {
              header: t('users.available'),
              label: t('users.available'),
              cell: (a) => format.money(a.available, a.currency),
              className: 'number',
            },
            {
              header: t('users.incoming'),
              label: t('users.incoming'),
              cell: (a) => format.money(a.pending_in, a.currency),
              className: 'number',
            },
          ]}
        />
      </section>

      <section aria-labelledby="operations-title">
        <h2 id="operations-title">{t('users.operations')}</h2>
        <DataTable
          rows={card.data.operations}
          rowKey={(o) => `${o.transfer_id}-${o.amount}`}
          columns={[
            { header: t('users.date'), label: t('users.date'), cell: (o) => format.dateTime(o.created_at) },
            { header: t('users.kind'), label: t('users.kind'), cell: (o) => names('kind', o.kind) },
            {
              header: t('users.amount'),
              label: t('users.amount'),
              cell: (o) => format.money(o.amount, o.currency),
              className: 'number',
            },
            {
              header: t('users.description'),
              label: t('users.description'),
              cell: (o) => o.description ?? '—',
            },
            { header: t('users.status'), label: t('users.status'), cell: (o) => names('status', o.status) },
            {
              header: <span className="sr-only">{t('users.proposeRefund')}</span>,
              cell: (o) =>
                roleAllows(role, 'refund') &&
                o.status === 'posted' &&
                o.kind !== 'refund' &&
                o.kind !== 'exchange' && (
                  <button type="button" className="secondary" onClick={() => setRefundOf(o)}>
                    {t('users.proposeRefund')}
                  </button>
                ),
            },
          ]}
        />
        {refundOf && (
          <RefundForm
            key={refundOf.transfer_id}
            transferId={refundOf.transfer_id}
            amount={refundOf.amount.replace(/^-/, '')}
            onDone={() => setRefundOf(null)}
          />
        )}
      </section>

      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">{t('users.sessions')}</h2>
        <DataTable
          rows={card.data.sessions}
          rowKey={(s) => s.id}
          columns={[
            {
              header: t('users.device'),
              label: t('users.device'),
              cell: (s) => <span title={s.user_agent}>{format.device(s.user_agent)}</span>,
            },
            { header: t('users.address'), label: t('users.address'), cell: (s) => s.ip },
            {
              header: t('users.lastUsed'),
              label: t('users.lastUsed'),
              cell: (s) => format.dateTime(s.last_used_at),
            },
          ]}
        />
      </section>

      <section aria-labelledby="reports-title">
        <h2 id="reports-title">{t('users.reports')}</h2>
        <DataTable
          rows={card.data.reports}
          rowKey={(r) => r.id}
          columns={[
            { header: t('users.date'), label: t('users.date'), cell: (r) => format.dateTime(r.created_at) },
            {
              header: t('users.operation'),
              label: t('users.operation'),
              cell: (r) => <span className="mono">{r.transfer_id}</span>,
            },
            { header: t('form.reason'), label: t('form.reason'), cell: (r) => r.reason },
            { header: t('users.status'), label: t('users.status'), cell: (r) => names('status', r.status) },
            {
              header: <span className="sr-only">{t('users.closeReport')}</span>,
              cell: (r) =>
                r.status === 'open' &&
                roleAllows(role, 'freeze') && (
                  <ReasonForm
                    action={t('users.closeReport')}
                    label={t('users.finding')}
                    onSubmit={(reason) => closeReport.mutateAsync({ params: { id: r.id }, body: { reason } })}
                  />
                ),
            },
          ]}
        />
      </section>

      <section aria-labelledby="audit-title">
        <h2 id="audit-title">{t('users.audit')}</h2>
        <AuditLines lines={card.data.audit} />
      </section>
    </>
  );
}
