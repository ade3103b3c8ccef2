/**
 * Operators (administrators only): adding one hands out a one-time link, never a credential; a role
 * that approves refunds or manages operators waits for a second administrator; disabling ends the
 * operator's sessions at once; a TOTP reset hands out a link where the operator sets a new one.
 */
import { OPERATOR_ROLES, type OperatorRole } from '@e-wallet/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useAction, useMe, usePagedList } from '../../shared/api/queries.ts';
import { useFormat, useNames } from '../../shared/format/format.ts';
import { FieldError } from '../../shared/ui/field-error.tsx';
import { ReasonForm } from '../../shared/ui/reason-form.tsx';
import { Badge, ErrorText, Facts, MoreButton, Title } from '../../shared/ui/ui.tsx';

interface OperatorRow {
  id: string;
  email: string;
  role: OperatorRole;
  pending_role: OperatorRole | null;
  pending_by_email: string | null;
  set_up: boolean;
  failures: number;
  disabled_at: string | null;
  last_seen_at: string | null;
}
interface Setup {
  token: string;
  purpose: 'credentials' | 'totp';
  expires_at: string;
}

const NewOperator = z.object({ email: z.email().max(200), role: z.enum(OPERATOR_ROLES) });
type NewOperator = z.infer<typeof NewOperator>;

/** The one-time link to hand over: the token rides in the fragment, never sent to a server's log. */
function SetupLink({
  email,
  setup,
  pendingRole,
}: {
  email: string;
  setup: Setup;
  pendingRole?: OperatorRole | null;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const url = `${window.location.origin}/setup#${setup.token}`;
  return (
    <div className="panel" role="status" aria-labelledby="setup-link-title">
      <h2 id="setup-link-title">
        {t('operators.linkTitle')}: {email}
      </h2>
      <p>{t('operators.linkNote', { until: format.dateTime(setup.expires_at) })}</p>
      <input
        className="mono wide"
        readOnly
        value={url}
        aria-label={t('operators.linkTitle')}
        data-testid="setup-link"
      />
      {pendingRole && (
        <p className="note">{t('operators.pendingNote', { role: names('role', pendingRole) })}</p>
      )}
    </div>
  );
}

function CreateOperator({
  onLink,
}: {
  onLink(link: { email: string; setup: Setup; pendingRole: OperatorRole | null }): void;
}) {
  const { t } = useTranslation();
  const names = useNames();
  const create = useAction<OperatorRow & { setup: Setup }>('operatorCreate');
  const form = useForm<NewOperator>({
    resolver: zodResolver(NewOperator),
    defaultValues: { email: '', role: 'support' },
  });
  const submit = form.handleSubmit(async (values) => {
    const made = await create.mutateAsync({ body: values }).catch(() => null);
    if (!made) return;
    onLink({ email: made.email, setup: made.setup, pendingRole: made.pending_role });
    form.reset();
  });
  return (
    <form className="inline" onSubmit={submit} aria-labelledby="create-operator-title" noValidate>
      <h2 id="create-operator-title" className="sr-only">
        {t('operators.create')}
      </h2>
      <label htmlFor="op-email">{t('operators.email')}</label>
      <input id="op-email" type="email" {...form.register('email')} />
      <label htmlFor="op-role">{t('operators.role')}</label>
      <select id="op-role" {...form.register('role')}>
        {OPERATOR_ROLES.map((role) => (
          <option key={role} value={role}>
            {names('role', role)}
          </option>
        ))}
      </select>
      <button type="submit" disabled={create.isPending}>
        {t('operators.create')}
      </button>
      <FieldError error={form.formState.errors.email} label={t('operators.email')} />
      <ErrorText error={create.error} />
    </form>
  );
}

function OperatorCard({
  row,
  meId,
  meEmail,
  onLink,
}: {
  row: OperatorRow;
  meId: string;
  meEmail: string;
  onLink(link: { email: string; setup: Setup; pendingRole: null }): void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const changeRole = useAction<{ status: string }>('operatorRole');
  const confirmRole = useAction('operatorRoleConfirm');
  const reset = useAction<{ setup: Setup }>('operatorTotpReset');
  const unlock = useAction('operatorUnlock');
  const disable = useAction('operatorDisable');
  const [role, setRole] = useState<OperatorRole>(row.role);
  const [done, setDone] = useState<string | null>(null);
  const self = row.id === meId;
  const error = changeRole.error ?? confirmRole.error ?? reset.error ?? unlock.error ?? disable.error;
  return (
    <article className="panel operator" aria-labelledby={`op-${row.id}`} data-testid="operator-card">
      <h2 id={`op-${row.id}`}>
        {row.email} {self && <span className="note">({t('operators.you')})</span>}
      </h2>
      <Facts
        items={[
          [t('operators.role'), names('role', row.role)],
          [
            t('operators.state'),
            row.disabled_at ? (
              <Badge key="state" tone="danger">
                {t('operators.disabled')}
              </Badge>
            ) : row.set_up ? (
              <Badge key="state" tone="ok">
                {t('operators.setUp')}
              </Badge>
            ) : (
              <Badge key="state" tone="warn">
                {t('operators.notSetUp')}
              </Badge>
            ),
          ],
          ...(row.pending_role
            ? ([
                [
                  t('operators.newRole'),
                  t('operators.pending', {
                    role: names('role', row.pending_role),
                    by: row.pending_by_email ?? '—',
                  }),
                ],
              ] as Array<[string, string]>)
            : []),
          [t('operators.failures'), String(row.failures)],
          [t('operators.lastSeen'), format.dateTime(row.last_seen_at)],
        ]}
      />
      {done && <p role="status">{done}</p>}
      <ErrorText error={error} />
      {!self && !row.disabled_at && (
        <div className="actions">
          <form
            className="inline"
            onSubmit={(event) => {
              event.preventDefault();
              changeRole
                .mutateAsync({ params: { id: row.id }, body: { role } })
                .then((answer) =>
                  setDone(
                    t(answer.status === 'proposed' ? 'operators.proposedRole' : 'operators.roleChanged'),
                  ),
                )
                .catch(() => {});
            }}
          >
            <label htmlFor={`role-${row.id}`}>{t('operators.newRole')}</label>
            <select
              id={`role-${row.id}`}
              value={role}
              onChange={(event) => setRole(event.target.value as OperatorRole)}
            >
              {OPERATOR_ROLES.map((r) => (
                <option key={r} value={r}>
                  {names('role', r)}
                </option>
              ))}
            </select>
            <button type="submit" className="secondary">
              {t('operators.changeRole')}
            </button>
          </form>
          {row.pending_role && row.pending_by_email !== meEmail && (
            <button type="button" onClick={() => confirmRole.mutate({ params: { id: row.id } })}>
              {t('operators.confirmRole')}
            </button>
          )}
          <button
            type="button"
            className="secondary"
            onClick={() =>
              reset
                .mutateAsync({ params: { id: row.id } })
                .then((answer) => onLink({ email: row.email, setup: answer.setup, pendingRole: null }))
                .catch(() => {})
            }
          >
            {t('operators.resetTotp')}
          </button>
          {row.failures > 0 && (
            <button
              type="button"
              className="secondary"
              onClick={() => unlock.mutate({ params: { id: row.id } })}
            >
              {t('operators.unlock')}
            </button>
          )}
          <ReasonForm
            action={t('operators.disable')}
            label={t('operators.disableReason')}
            danger
            onSubmit={async (reason) => {
              await disable.mutateAsync({ params: { id: row.id }, body: { reason } });
              setDone(t('operators.disabledDone'));
            }}
          />
        </div>
      )}
    </article>
  );
}

export function OperatorsPage() {
  const { t } = useTranslation();
  const me = useMe().data;
  const list = usePagedList<OperatorRow>('operators');
  const [link, setLink] = useState<{ email: string; setup: Setup; pendingRole: OperatorRole | null } | null>(
    null,
  );
  return (
    <>
      <Title>{t('operators.title')}</Title>
      <CreateOperator onLink={setLink} />
      {link && <SetupLink email={link.email} setup={link.setup} pendingRole={link.pendingRole} />}
      <ErrorText error={list.error} />
      {!list.rows && !list.error && <p>{t('app.loading')}</p>}
      <div className="cards">
        {list.rows?.map((row) => (
          <OperatorCard
            key={row.id}
            row={row}
            meId={me?.id ?? ''}
            meEmail={me?.email ?? ''}
            onLink={setLink}
          />
        ))}
      </div>
      <MoreButton list={list} />
    </>
  );
}
