/** The identification queue with the document data: approve to the next level, or reject with a reason. */
import { type OperatorRole, roleAllows } from '@e-wallet/contract';
import { useState } from 'react';
import { api } from './api.ts';
import { useLanguage, useName, useT } from './i18n.tsx';
import { ApproveOrReject, date, ErrorText, errorText, Link, Title, useLoad } from './ui.tsx';

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

interface Photo {
  content_type: string;
  data: string;
}

/** The application's photos, opened on request (each opening is audited). */
function Photos({ application }: { application: Application }) {
  const t = useT();
  const [photos, setPhotos] = useState<Photo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!application.photos) return null;
  if (!photos)
    return (
      <>
        <ErrorText error={error} />
        <button
          type="button"
          onClick={async () => {
            try {
              const answer = await api<{ photos: Photo[] }>(
                'GET',
                `/ops/v1/identifications/${application.id}/photos`,
              );
              setPhotos(answer.photos);
            } catch (e) {
              setError(errorText(e));
            }
          }}
        >
          {t('showPhotos')} ({application.photos})
        </button>
      </>
    );
  return (
    <div className="photos">
      {photos.map((photo, n) => (
        <img
          // biome-ignore lint/suspicious/noArrayIndexKey: an application's photos keep their order
          key={n}
          src={`data:${photo.content_type};base64,${photo.data}`}
          alt={`${t('photoOf')} ${n + 1} / ${photos.length}`}
        />
      ))}
    </div>
  );
}

export function Identifications({ role }: { role: OperatorRole }) {
  const t = useT();
  const { language } = useLanguage();
  const { data, error, reload } = useLoad(
    () => api<{ identifications: Application[] }>('GET', '/ops/v1/identifications?status=pending'),
    [],
  );
  const [actionError, setActionError] = useState<string | null>(null);
  const decides = roleAllows(role, 'identify');
  const name = useName();
  return (
    <main id="main">
      <Title>{t('queue')}</Title>
      <ErrorText error={error ?? actionError} />
      {data && data.identifications.length === 0 && <p>{t('emptyQueue')}</p>}
      {data?.identifications.map((a) => (
        <article key={a.id} className="panel" aria-labelledby={`app-${a.id}`}>
          <h2 id={`app-${a.id}`}>
            {a.full_name ?? '—'} · <Link to={`/users/${a.user.id}`}>{a.user.phone ?? a.user.id}</Link>
          </h2>
          <dl className="facts">
            <dt>{t('document')}</dt>
            <dd>{name('document', a.document_type)}</dd>
            <dt>{t('documentNumber')}</dt>
            <dd className="mono">{a.document_number ?? a.document_number_masked ?? '—'}</dd>
            <dt>{t('fullName')}</dt>
            <dd>{a.full_name ?? '—'}</dd>
            <dt>{t('birthDate')}</dt>
            <dd>{a.birth_date ?? '—'}</dd>
            <dt>{t('level')}</dt>
            <dd>{name('level', a.user.level)}</dd>
            <dt>{t('targetLevel')}</dt>
            <dd>{name('level', a.target_level)}</dd>
            <dt>{t('submitted')}</dt>
            <dd>{date(a.submitted_at, language)}</dd>
          </dl>
          <Photos application={a} />
          {decides && (
            <ApproveOrReject
              path={`/ops/v1/identifications/${a.id}`}
              rejectLabel="rejectReason"
              onDone={reload}
              onError={setActionError}
            />
          )}
        </article>
      ))}
    </main>
  );
}
