/**
 * The merchants' queue (docs/decisions/merchants.md#merchants): applications under review by default;
 * those who decide identifications approve one, or reject it with a reason the applicant reads.
 */
import { type OpsMerchant as Merchant, roleAllows } from '@e-wallet/contract';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useSearchParams } from 'react-router';
import { useAction, useMe, usePagedList } from '../../shared/api/queries.ts';
import { useFormat } from '../../shared/format/format.ts';
import { ReasonForm } from '../../shared/ui/reason-form.tsx';
import { ErrorText, Facts, MoreButton, Title } from '../../shared/ui/ui.tsx';

const FILTERS = ['pending', 'active', 'rejected'] as const;

export function MerchantsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const role = useMe().data?.role ?? 'support';
  const [search] = useSearchParams();
  const status = FILTERS.find((f) => f === search.get('status')) ?? 'pending';
  const list = usePagedList<Merchant>('merchants', { status });
  const approve = useAction('merchantApprove');
  const reject = useAction('merchantReject');
  const decides = roleAllows(role, 'identify');
  return (
    <>
      <Title>{t('merchants.title')}</Title>
      <nav className="tabs" aria-label={t('merchants.title')}>
        {FILTERS.map((filter) => (
          <NavLink
            key={filter}
            to={filter === 'pending' ? '/merchants' : `/merchants?status=${filter}`}
            end
            className={() => (status === filter ? 'active' : '')}
            aria-current={status === filter ? 'page' : 'false'}
          >
            {t(`merchants.${filter}`)}
          </NavLink>
        ))}
      </nav>
      <ErrorText error={list.error ?? approve.error} />
      {list.rows?.length === 0 && <p>{t('merchants.none')}</p>}
      {list.rows?.map((m) => (
        <article key={m.id} className="panel" aria-labelledby={`merchant-${m.id}`} data-testid="ops-merchant">
          <h2 id={`merchant-${m.id}`}>{m.name}</h2>
          <Facts
            items={[
              [
                t('merchants.owner'),
                <Link
                  key="owner"
                  to={`/users/${m.user_id}`}
                >{`${m.last_name} ${m.first_name}, ${m.phone}`}</Link>,
              ],
              [t('merchants.kind'), t(`merchants.kinds.${m.kind}`)],
              [
                t('merchants.inn'),
                <span key="inn" className="mono">
                  {m.inn}
                </span>,
              ],
              [t('merchants.mcc'), m.mcc],
              [t('merchants.site'), m.site_url],
              [
                t('merchants.bank'),
                <span key="bank" className="mono">{`${m.bank_bic} · ${m.bank_account}`}</span>,
              ],
              [t('merchants.notificationUrl'), m.notification_url ?? '—'],
              [t('merchants.created'), format.dateTime(m.created_at)],
              ...(m.reason ? ([[t('merchants.reason'), m.reason]] as Array<[string, string]>) : []),
              ...(m.decided_by
                ? ([[t('merchants.decidedBy'), m.decided_by]] as Array<[string, string]>)
                : []),
            ]}
          />
          {decides && m.status === 'pending' && (
            <div className="actions">
              <button type="button" onClick={() => approve.mutate({ params: { id: m.id } })}>
                {t('merchants.approve')}
              </button>
              <ReasonForm
                action={t('merchants.reject')}
                danger
                onSubmit={(reason) => reject.mutateAsync({ params: { id: m.id }, body: { reason } })}
              />
            </div>
          )}
        </article>
      ))}
      <MoreButton list={list} />
    </>
  );
}
