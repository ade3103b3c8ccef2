/** The identification queue with the document data: approve to the next level, or reject with a reason. */
import { roleAllows } from '@e-wallet/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { opsCall } from '../../shared/api/client.ts';
import { useAction, useMe, usePagedList } from '../../shared/api/queries.ts';
import { useFormat, useNames } from '../../shared/format/format.ts';
import { ReasonForm } from '../../shared/ui/reason-form.tsx';
import { ErrorText, Facts, MoreButton, Title } from '../../shared/ui/ui.tsx';

interface Application {
  id: string;
  user: { id: string; first_name?: string; last_name?: string; phone?: string; level?: string };
  target_level: string;
  document_type: string | null;
  document_number: string | null;
  document_number_masked: string | null;
  full_name: string | null;
  birth_date: string | null;
  submitted_at: string | null;
  /** Null for a role that does not decide: it sees neither the number nor the photos. */
  photos: number | null;
}

/** The application's photos, opened on request (each opening is audited). */
function Photos({ application }: { application: Application }) {
  const { t } = useTranslation();
  const [photos, setPhotos] = useState<Array<{ content_type: string; data: string }> | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (!application.photos) return null;
  if (!photos)
    return (
      <>
        <ErrorText error={error} />
        <button
          type="button"
          className="secondary"
          onClick={() =>
            opsCall<{ photos: typeof photos }>('identificationPhotos', {
              params: { id: application.id },
            }).then((answer) => setPhotos(answer.photos), setError)
          }
        >
          {t('identifications.showPhotos', { count: application.photos })}
        </button>
      </>
    );
  return (
    <div className="photos">
      {(photos ?? []).map((photo, n) => (
        <img
          // biome-ignore lint/suspicious/noArrayIndexKey: an application's photos keep their order
          key={n}
          src={`data:${photo.content_type};base64,${photo.data}`}
          alt={t('identifications.photo', { n: n + 1, count: photos?.length ?? 0 })}
        />
      ))}
    </div>
  );
}

export function IdentificationsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const role = useMe().data?.role ?? 'support';
  const list = usePagedList<Application>('identifications', { status: 'pending' });
  const approve = useAction('identificationApprove');
  const reject = useAction('identificationReject');
  const decides = roleAllows(role, 'identify');
  return (
    <>
      <Title>{t('identifications.title')}</Title>
      <ErrorText error={list.error ?? approve.error} />
      {list.rows?.length === 0 && <p>{t('identifications.none')}</p>}
      {list.rows?.map((a) => (
        <article key={a.id} className="panel" aria-labelledby={`app-${a.id}`}>
          <h2 id={`app-${a.id}`}>
            {a.full_name ?? '—'} ·{' '}
            <Link to={`/users/${a.user.id}`}>{format.phone(a.user.phone) ?? a.user.id}</Link>
          </h2>
          <Facts
            items={[
              [t('identifications.document'), names('document', a.document_type)],
              [
                t('identifications.documentNumber'),
                <span key="number" className="mono">
                  {a.document_number ?? a.document_number_masked ?? '—'}
                </span>,
              ],
              [t('identifications.fullName'), a.full_name ?? '—'],
              [t('identifications.birthDate'), format.day(a.birth_date)],
              [t('identifications.level'), names('level', a.user.level)],
              [t('identifications.targetLevel'), names('level', a.target_level)],
              [t('identifications.submitted'), format.dateTime(a.submitted_at)],
            ]}
          />
          <Photos application={a} />
          {decides && (
            <div className="actions">
              <button
                type="button"
                disabled={approve.isPending}
                onClick={() => approve.mutate({ params: { id: a.id } })}
              >
                {t('identifications.approve')}
              </button>
              <ReasonForm
                action={t('identifications.reject')}
                label={t('identifications.rejectReason')}
                danger
                onSubmit={(reason) => reject.mutateAsync({ params: { id: a.id }, body: { reason } })}
              />
            </div>
          )}
        </article>
      ))}
      <MoreButton list={list} />
    </>
  );
}
