/** Saved payees and repeat: recent recipients, templates (GET/POST/DELETE), a transfer to repeat. */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';

export const recentQuery = () =>
  queryOptions({
    queryKey: ['recent-recipients'],
    queryFn: ({ signal }) => callOk('recentRecipients', { signal }),
  });

export const templatesQuery = () =>
  queryOptions({
    queryKey: ['templates'],
    queryFn: ({ signal }) => callOk('templateList', { signal }),
  });

export const repeatQuery = (id: string | null) =>
  queryOptions({
    queryKey: ['repeat', id],
    queryFn: ({ signal }) => callOk('transactionRepeat', { params: { id: id ?? '' }, signal }),
    enabled: !!id,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function saveTemplate(body: BodyOf<'templateCreate'>) {
  return callOk('templateCreate', { body });
}

export function deleteTemplate(id: string) {
  return callOk('templateDelete', { params: { id } });
}
