/** Everyone, newest first, or those a search finds by phone, name or e-mail; page after page. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import type { User } from '../../shared/api/people.ts';
import { usePagedList } from '../../shared/api/queries.ts';
import { useFormat, useNames } from '../../shared/format/format.ts';
import { DataTable, ErrorText, Title } from '../../shared/ui/ui.tsx';
import { FrozenBadge } from './frozen-badge.tsx';

const Search = z.object({ query: z.string().trim().max(100) });

export function UsersPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const [search, setSearch] = useSearchParams();
  const query = search.get('query') ?? '';
  const list = usePagedList<User>('users', { query });
  const form = useForm({ resolver: zodResolver(Search), values: { query } });
  const submit = form.handleSubmit(({ query: text }) => setSearch(text ? { query: text } : {}));
  return (
    <>
      <Title>{t('users.title')}</Title>
      <form className="inline" onSubmit={submit}>
        <label htmlFor="user-query">{t('users.searchLabel')}</label>
        <input id="user-query" type="search" {...form.register('query')} />
        <button type="submit">{t('users.search')}</button>
      </form>
      {!query && <p className="note">{t('users.all')}</p>}
      <ErrorText error={list.error} />
      <DataTable
        caption={t('users.title')}
        rows={list.error ? [] : list.rows}
        rowKey={(user) => user.id}
        columns={[
          {
            header: t('users.name'),
            label: t('users.name'),
            cell: (user) => <Link to={`/users/${user.id}`}>{`${user.last_name} ${user.first_name}`}</Link>,
          },
          {
            header: t('users.phone'),
            label: t('users.phone'),
            cell: (user) => format.phone(user.phone),
            className: 'nowrap',
          },
          { header: t('users.email'), label: t('users.email'), cell: (user) => user.email },
          { header: t('users.level'), label: t('users.level'), cell: (user) => names('level', user.level) },
          {
            header: t('users.status'),
            label: t('users.status'),
            cell: (user) => <FrozenBadge user={user} />,
          },
          {
            header: t('users.registered'),
            label: t('users.registered'),
            cell: (user) => format.dateTime(user.created_at),
          },
        ]}
        more={list}
      />
    </>
  );
}
