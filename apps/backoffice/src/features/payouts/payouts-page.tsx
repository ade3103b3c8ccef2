/** Payouts (stuck by default): settle as paid or release the money back, each with a reason. */
import { roleAllows } from '@e-wallet/contract';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useSearchParams } from 'react-router';
import { useAction, useMe, usePagedList } from '../../shared/api/queries.ts';
import { useFormat, useNames } from '../../shared/format/format.ts';
import { ReasonForm } from '../../shared/ui/reason-form.tsx';
import { ErrorText, Facts, MoreButton, Title } from '../../shared/ui/ui.tsx';

interface Payout {
  id: string;
  user_id: string;
  first_name: string;
  last_name: string;
  phone: string;
  purpose: string;
  amount: string;
  fee: string | null;
  currency: string;
  destination: string;
  provider: string;
  status: string;
  failure_reason: string | null;
  created_at: string;
}

const FILTERS = ['stuck', 'open', 'all'] as const;

export function PayoutsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const role = useMe().data?.role ?? 'support';
  const [search] = useSearchParams();
  const status = FILTERS.find((f) => f === search.get('status')) ?? 'stuck';
  const list = usePagedList<Payout>('payouts', { status });
  const settle = useAction('payoutSettle');
  const release = useAction('payoutRelease');
  const decides = roleAllows(role, 'payouts');
  return (
    <>
      <Title>{t('payouts.title')}</Title>
      <nav className="tabs" aria-label={t('payouts.title')}>
        {FILTERS.map((filter) => (
          <NavLink
            key={filter}
            to={filter === 'stuck' ? '/payouts' : `/payouts?status=${filter}`}
            end
            className={() => (status === filter ? 'active' : '')}
            aria-current={status === filter ? 'page' : 'false'}
          >
            {t(`payouts.${filter}`)}
          </NavLink>
        ))}
      </nav>
      <ErrorText error={list.error} />
      {list.rows?.length === 0 && <p>{t('payouts.none')}</p>}
      {list.rows?.map((p) => (
        <article key={p.id} className="panel" aria-labelledby={`payout-${p.id}`}>
          <h2 id={`payout-${p.id}`}>
            {format.money(p.amount, p.currency)} ·{' '}
            <Link to={`/users/${p.user_id}`}>{`${p.last_name} ${p.first_name}`}</Link>
          </h2>
          <Facts
            items={[
              [t('payouts.purpose'), names('purpose', p.purpose)],
              [
                t('payouts.destination'),
                <span key="destination" className="mono">
                  {p.destination}
                </span>,
              ],
              ...(p.fee
                ? ([[t('payouts.fee'), format.money(p.fee, p.currency)]] as Array<[string, string]>)
                : []),
              [t('payouts.provider'), p.provider],
              [t('payouts.status'), names('status', p.status)],
              [t('payouts.created'), format.dateTime(p.created_at)],
              ...(p.failure_reason
                ? ([[t('payouts.failure'), p.failure_reason]] as Array<[string, string]>)
                : []),
            ]}
          />
          {decides && ['created', 'pending'].includes(p.status) && (
            <div className="actions">
              <ReasonForm
                action={t('payouts.settle')}
                onSubmit={(reason) => settle.mutateAsync({ params: { id: p.id }, body: { reason } })}
              />
              <ReasonForm
                action={t('payouts.release')}
                danger
                onSubmit={(reason) => release.mutateAsync({ params: { id: p.id }, body: { reason } })}
              />
            </div>
          )}
        </article>
      ))}
      <MoreButton list={list} />
    </>
  );
}
