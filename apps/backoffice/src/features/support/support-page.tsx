/**
 * The support chat (docs/decisions/support.md#support-chat): the queue of open conversations, those waiting
 * first with how long they wait, and the closed ones; live as people write on any instance.
 */
import './support.css';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useSearchParams } from 'react-router';
import { usePagedList } from '../../shared/api/queries.ts';
import { useFormat } from '../../shared/format/format.ts';
import { Badge, DataTable, ErrorText, Title } from '../../shared/ui/ui.tsx';
import { useSupportEvents } from './use-support-events.ts';
import { WaitTime } from './wait-time.tsx';

export interface Conversation {
  id: string;
  user_id: string;
  status: 'open' | 'closed';
  first_name: string;
  last_name: string;
  phone: string;
  waiting_since: string | null;
  wait_seconds: number | null;
  last_message_at: string;
  last_text: string | null;
  last_author: 'person' | 'operator' | null;
  unread: number;
  assigned_email: string | null;
}

const FILTERS = ['open', 'closed'] as const;

export function SupportPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [search] = useSearchParams();
  const status = FILTERS.find((f) => f === search.get('status')) ?? 'open';
  const list = usePagedList<Conversation>('supportConversations', { status });
  useSupportEvents();
  return (
    <>
      <Title>{t('support.title')}</Title>
      <nav className="tabs" aria-label={t('support.title')}>
        {FILTERS.map((filter) => (
          <NavLink
            key={filter}
            to={filter === 'open' ? '/support' : `/support?status=${filter}`}
            end
            className={() => (status === filter ? 'active' : '')}
            aria-current={status === filter ? 'page' : 'false'}
          >
            {t(`support.${filter}`)}
          </NavLink>
        ))}
      </nav>
      <ErrorText error={list.error} />
      <DataTable
        caption={t('support.title')}
        rows={list.error ? [] : list.rows}
        rowKey={(c) => c.id}
        empty={t('support.none')}
        columns={[
          {
            header: t('support.person'),
            label: t('support.person'),
            cell: (c) => (
              <Link to={`/support/${c.id}`}>
                {`${c.last_name} ${c.first_name}`}
                {c.unread > 0 && (
                  <>
                    {' '}
                    <Badge tone="warn">{t('support.unread', { count: c.unread })}</Badge>
                  </>
                )}
              </Link>
            ),
          },
          {
            header: t('support.phone'),
            label: t('support.phone'),
            cell: (c) => format.phone(c.phone),
            className: 'nowrap',
          },
          {
            header: t('support.waiting'),
            label: t('support.waiting'),
            cell: (c) => <WaitTime seconds={c.wait_seconds} />,
          },
          {
            header: t('support.last'),
            label: t('support.last'),
            cell: (c) =>
              c.last_text
                ? `${c.last_author === 'operator' ? `${t('support.you')}: ` : ''}${c.last_text}`
                : '—',
          },
          {
            header: t('support.taken'),
            label: t('support.taken'),
            cell: (c) => c.assigned_email ?? t('support.nobody'),
          },
        ]}
        more={list}
      />
    </>
  );
}
