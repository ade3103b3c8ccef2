/**
 * Held operations (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): the signs that fired, the
 * person to call; support and above release the money or refuse the operation, each with a reason (audited).
 */
import { roleAllows } from '@e-wallet/contract';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useSearchParams } from 'react-router';
import { useAction, useMe, usePagedList } from '../../shared/api/queries.ts';
import { useFormat } from '../../shared/format/format.ts';
import { ReasonForm } from '../../shared/ui/reason-form.tsx';
import { ErrorText, Facts, MoreButton, Title } from '../../shared/ui/ui.tsx';

interface HeldOperation {
  id: string;
  user_id: string;
  first_name: string;
  last_name: string;
  phone: string;
  kind: string;
  amount: string;
  currency: string;
  payee_label: string;
  reasons: string[];
  status: string;
  approver_id: string | null;
  created_at: string;
  expires_at: string;
  release_proposed_by: string | null;
  release_proposed_by_email: string | null;
  release_reason: string | null;
  /** From the amount floor up: one operator proposes, a second with the compliance role releases. */
  needs_two: boolean;
}

const FILTERS = ['open', 'all'] as const;

export function HoldsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const role = useMe().data?.role ?? 'support';
  const [search] = useSearchParams();
  const status = FILTERS.find((f) => f === search.get('status')) ?? 'open';
  const list = usePagedList<HeldOperation>('holds', { status });
  const release = useAction('holdRelease');
  const refuse = useAction('holdRefuse');
  const decides = roleAllows(role, 'freeze');
  const me = useMe().data?.id;
  // The page offers nobody a release the server would refuse them (ops/antifraud.ts).
  const mayRelease = (hold: HeldOperation) =>
    hold.status === 'held' &&
    (!hold.needs_two ||
      hold.release_proposed_by === null ||
      (hold.release_proposed_by !== me && roleAllows(role, 'identify')));
  return (
    <>
      <Title>{t('antifraud.holds.title')}</Title>
      <nav className="tabs" aria-label={t('antifraud.holds.title')}>
        {FILTERS.map((filter) => (
          <NavLink
            key={filter}
            to={filter === 'open' ? '/holds' : `/holds?status=${filter}`}
            end
            className={() => (status === filter ? 'active' : '')}
            aria-current={status === filter ? 'page' : 'false'}
          >
            {t(`antifraud.holds.${filter}`)}
          </NavLink>
        ))}
      </nav>
      <ErrorText error={list.error} />
      {list.rows?.length === 0 && <p>{t('antifraud.holds.none')}</p>}
      {list.rows?.map((hold) => (
        <article key={hold.id} className="panel" aria-labelledby={`hold-${hold.id}`}>
          <h2 id={`hold-${hold.id}`}>
            {format.money(hold.amount, hold.currency)} ·{' '}
            <Link to={`/users/${hold.user_id}`}>{`${hold.last_name} ${hold.first_name}`}</Link>
          </h2>
          <Facts
            items={[
              [t('antifraud.holds.phone'), format.phone(hold.phone)],
              [t('antifraud.holds.payee'), hold.payee_label],
              [
                t('antifraud.holds.signs'),
                hold.reasons
                  .map((reason) => t(`antifraud.reason.${reason}`, { defaultValue: reason }))
                  .join('; '),
              ],
              [
                t('antifraud.holds.status'),
                t(`antifraud.status.${hold.status}`, { defaultValue: hold.status }),
              ],
              [t('antifraud.holds.created'), format.dateTime(hold.created_at)],
              [t('antifraud.holds.expires'), format.dateTime(hold.expires_at)],
              ...(hold.release_proposed_by_email
                ? [
                    [t('antifraud.holds.proposedBy'), hold.release_proposed_by_email] as [string, string],
                    [t('antifraud.holds.proposedWhy'), hold.release_reason ?? ''] as [string, string],
                  ]
                : []),
            ]}
          />
          {['held', 'awaiting_approval'].includes(hold.status) && (
            <p className="note">
              {hold.status === 'awaiting_approval'
                ? t('antifraud.holds.trustedDecides')
                : hold.needs_two
                  ? t('antifraud.holds.needsTwo')
                  : null}
            </p>
          )}
          {decides && ['held', 'awaiting_approval'].includes(hold.status) && (
            <div className="actions">
              {/* Two reasons side by side: each field says which decision it explains. */}
              {mayRelease(hold) && (
                <ReasonForm
                  action={t('antifraud.holds.release')}
                  label={t('antifraud.holds.releaseReason')}
                  onSubmit={(reason) => release.mutateAsync({ params: { id: hold.id }, body: { reason } })}
                />
              )}
              <ReasonForm
                action={t('antifraud.holds.refuse')}
                label={t('antifraud.holds.refuseReason')}
                danger
                onSubmit={(reason) => refuse.mutateAsync({ params: { id: hold.id }, body: { reason } })}
              />
            </div>
          )}
        </article>
      ))}
      <MoreButton list={list} />
    </>
  );
}
