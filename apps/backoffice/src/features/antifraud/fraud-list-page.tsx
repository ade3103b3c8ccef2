/**
 * The local fraud list beside the Bank of Russia's database
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): recipients operators marked as fraud.
 * Compliance proposes an entry or its removal; another operator confirms it (four eyes). A card is kept only
 * as its keyed hash, so the list never shows its number.
 */

import { roleAllows } from '@e-wallet/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type Me, useAction, useMe, usePagedList } from '../../shared/api/queries.ts';
import { useFormat } from '../../shared/format/format.ts';
import { FieldError } from '../../shared/ui/field-error.tsx';
import { ReasonForm } from '../../shared/ui/reason-form.tsx';
import { ErrorText, Facts, MoreButton, Title } from '../../shared/ui/ui.tsx';

interface Entry {
  id: string;
  kind: string;
  value: string;
  reason: string;
  proposed_by: string;
  proposed_by_email: string;
  proposed_at: string;
  confirmed_by_email: string | null;
  confirmed_at: string | null;
  removal_proposed_by: string | null;
  removal_proposed_by_email: string | null;
  removal_reason: string | null;
}

const Proposal = z.object({
  kind: z.enum(['phone', 'card', 'account']),
  value: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{8,30}$/),
  reason: z.string().trim().min(1).max(500),
});
type Proposal = z.infer<typeof Proposal>;

function ProposeEntry() {
  const { t } = useTranslation();
  const propose = useAction('fraudListPropose');
  const form = useForm<Proposal>({
    resolver: zodResolver(Proposal),
    defaultValues: { kind: 'phone', value: '', reason: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    const digits = values.value.replace(/[\s()-]/g, '');
    // A refused proposal (its error shows under the fields) keeps what was typed, to be corrected.
    await propose.mutateAsync({ body: { ...values, value: digits } }).then(
      () => form.reset(),
      () => {},
    );
  });
  const { errors } = form.formState;
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="fraud-propose-title" noValidate>
      <h2 id="fraud-propose-title">{t('antifraud.list.proposeTitle')}</h2>
      <p className="note">{t('antifraud.list.fourEyes')}</p>
      <div className="fields">
        <div className="field narrow">
          <label htmlFor="fraud-kind">{t('antifraud.list.kind')}</label>
          <select id="fraud-kind" {...form.register('kind')}>
            {(['phone', 'card', 'account'] as const).map((kind) => (
              <option key={kind} value={kind}>
                {t(`antifraud.kind.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="fraud-value">{t('antifraud.list.value')}</label>
          <input
            id="fraud-value"
            className="mono"
            inputMode="tel"
            aria-invalid={errors.value ? true : undefined}
            aria-describedby={errors.value ? 'fraud-value-error' : undefined}
            {...form.register('value')}
          />
        </div>
        <div className="field">
          <label htmlFor="fraud-reason">{t('antifraud.list.reason')}</label>
          <input
            id="fraud-reason"
            aria-invalid={errors.reason ? true : undefined}
            aria-describedby={errors.reason ? 'fraud-reason-error' : undefined}
            {...form.register('reason')}
          />
        </div>
        <button type="submit" disabled={propose.isPending}>
          {t('antifraud.list.propose')}
        </button>
      </div>
      <FieldError error={errors.value} label={t('antifraud.list.value')} id="fraud-value-error" />
      <FieldError error={errors.reason} label={t('antifraud.list.reason')} id="fraud-reason-error" />
      <ErrorText error={propose.error} />
      {propose.isSuccess && <p role="status">{t('antifraud.list.proposed')}</p>}
    </form>
  );
}

/** An entry, what it is and why, and what this operator may do with it (confirm, withdraw, remove). */
function EntryCard({ entry, me, decides }: { entry: Entry; me: Me | null | undefined; decides: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const confirm = useAction('fraudListConfirm');
  const remove = useAction('fraudListRemove');
  // An unconfirmed entry never listed anyone: removing it is a withdrawal, at once. A proposed
  // removal waits for another operator than its proposer, as the server insists.
  const removal = !entry.confirmed_at ? 'withdraw' : entry.removal_proposed_by ? 'removeConfirm' : 'remove';
  const mayRemove = removal !== 'removeConfirm' || entry.removal_proposed_by !== me?.id;
  return (
    <article className="panel" aria-labelledby={`fraud-${entry.id}`}>
      <h2 id={`fraud-${entry.id}`}>
        {t(`antifraud.kind.${entry.kind}`)}:{' '}
        {/* A phone as the app writes it; a card's mask or an account's digits in monospace. */}
        {entry.kind === 'phone' ? format.phone(entry.value) : <span className="mono">{entry.value}</span>}
      </h2>
      {/* Both pairs of eyes by name: who proposed, who confirmed, who asked to remove. */}
      <Facts
        items={[
          [t('antifraud.list.reason'), entry.reason],
          [t('antifraud.list.proposedBy'), entry.proposed_by_email],
          [t('antifraud.list.proposedAt'), format.dateTime(entry.proposed_at)],
          ...(entry.confirmed_by_email
            ? [[t('antifraud.list.confirmedBy'), entry.confirmed_by_email] as [string, string]]
            : []),
          [
            t('antifraud.holds.status'),
            entry.removal_proposed_by
              ? t('antifraud.list.removalAsked', { reason: entry.removal_reason ?? '' })
              : entry.confirmed_at
                ? t('antifraud.list.active')
                : t('antifraud.list.waiting'),
          ],
          ...(entry.removal_proposed_by_email
            ? [[t('antifraud.list.removalBy'), entry.removal_proposed_by_email] as [string, string]]
            : []),
        ]}
      />
      {decides && (
        <div className="actions">
          {!entry.confirmed_at && entry.proposed_by !== me?.id && (
            <button type="button" onClick={() => confirm.mutate({ params: { id: entry.id } })}>
              {t('antifraud.list.confirm')}
            </button>
          )}
          {mayRemove && (
            <ReasonForm
              action={t(`antifraud.list.${removal}`)}
              label={t('antifraud.list.removeReason')}
              danger
              onSubmit={(reason) => remove.mutateAsync({ params: { id: entry.id }, body: { reason } })}
            />
          )}
        </div>
      )}
      {/* A removal's error shows in its own form. */}
      <ErrorText error={confirm.error} />
    </article>
  );
}

export function FraudListPage() {
  const { t } = useTranslation();
  const me = useMe().data;
  const list = usePagedList<Entry>('fraudList', {});
  const decides = me ? roleAllows(me.role, 'identify') : false;
  return (
    <>
      <Title>{t('antifraud.list.title')}</Title>
      {decides && <ProposeEntry />}
      <ErrorText error={list.error} />
      {list.rows?.length === 0 && <p>{t('antifraud.list.none')}</p>}
      {list.rows?.map((entry) => (
        <EntryCard key={entry.id} entry={entry} me={me} decides={decides} />
      ))}
      <MoreButton list={list} />
    </>
  );
}
