/**
 * The job system (docs/decisions/jobs.md#one-job-system): each queue's waiting, running, failed and dead jobs
 * and how old its oldest waiting job is; under a queue with trouble, its dead and failing jobs with
 * their error, which an admin retries or cancels.
 */
import { type JobProblem as Job, type QueueFigures as Queue, roleAllows } from '@e-wallet/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { opsCall, type Page } from '../../shared/api/client.ts';
import { useAction, useMe } from '../../shared/api/queries.ts';
import { useFormat } from '../../shared/format/format.ts';
import { Badge, DataTable, ErrorText, Facts, Title } from '../../shared/ui/ui.tsx';

export function JobsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const queues = useQuery({
    queryKey: ['jobs'],
    queryFn: () => opsCall<Page<Queue>>('jobs'),
    refetchInterval: 10_000,
  });
  const rows = queues.data?.results ?? null;
  return (
    <>
      <Title>{t('jobs.title')}</Title>
      <ErrorText error={queues.error} />
      <DataTable
        caption={t('jobs.title')}
        rows={queues.error ? [] : rows}
        rowKey={(q) => q.queue}
        empty={t('jobs.none')}
        columns={[
          {
            header: t('jobs.queue'),
            label: t('jobs.queue'),
            cell: (q) => t(`jobs.queues.${q.queue}`, { defaultValue: q.queue }),
          },
          { header: t('jobs.queued'), label: t('jobs.queued'), cell: (q) => q.queued },
          { header: t('jobs.active'), label: t('jobs.active'), cell: (q) => q.active },
          {
            header: t('jobs.failed'),
            label: t('jobs.failed'),
            cell: (q) => (q.failed > 0 ? <Badge tone="warn">{q.failed}</Badge> : 0),
          },
          {
            header: t('jobs.dead'),
            label: t('jobs.dead'),
            cell: (q) => (q.dead > 0 ? <Badge tone="danger">{q.dead}</Badge> : 0),
          },
          { header: t('jobs.oldest'), label: t('jobs.oldest'), cell: (q) => format.dateTime(q.oldest_at) },
        ]}
      />
      {rows
        ?.filter((q) => q.failed > 0 || q.dead > 0)
        .map((q) => (
          <QueueProblems key={q.queue} queue={q.queue} />
        ))}
    </>
  );
}

function QueueProblems({ queue }: { queue: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const role = useMe().data?.role ?? 'support';
  const problems = useQuery({
    queryKey: ['jobProblems', queue],
    queryFn: () => opsCall<Page<Job>>('jobProblems', { params: { queue, id: '' } }),
  });
  const retry = useAction('jobRetry');
  const cancel = useAction('jobCancel');
  const admin = roleAllows(role, 'jobs');
  const title = t(`jobs.queues.${queue}`, { defaultValue: queue });
  return (
    <section className="panel" aria-label={title}>
      <h2>{title}</h2>
      <ErrorText error={problems.error ?? retry.error ?? cancel.error} />
      {problems.data?.results.length === 0 && <p>{t('jobs.noProblems')}</p>}
      {problems.data?.results.map((job) => (
        <article key={job.id} className="job" aria-label={`${title}: ${t(`jobs.state.${job.state}`)}`}>
          <Facts
            items={[
              [
                t('jobs.stateLabel'),
                <Badge key="state" tone={job.state === 'dead' ? 'danger' : 'warn'}>
                  {t(`jobs.state.${job.state}`)}
                </Badge>,
              ],
              [t('jobs.error'), job.error ?? '—'],
              [t('jobs.retries'), job.retries],
              [t('jobs.created'), format.dateTime(job.created_at)],
              [t('jobs.data'), <code key="data">{JSON.stringify(job.data)}</code>],
            ]}
          />
          {admin && (
            <div className="actions">
              <button
                type="button"
                disabled={retry.isPending}
                onClick={() => void retry.mutateAsync({ params: { queue, id: job.id } })}
              >
                {t('jobs.retry')}
              </button>
              <button
                type="button"
                className="secondary"
                disabled={cancel.isPending}
                onClick={() => void cancel.mutateAsync({ params: { queue, id: job.id } })}
              >
                {t('jobs.cancel')}
              </button>
            </div>
          )}
        </article>
      ))}
    </section>
  );
}
