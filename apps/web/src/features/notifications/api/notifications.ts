/**
 * GET /v2/wallet/user/notification (newest first, with the unread count) and
 * POST /v2/wallet/user/notification/read for the ones the person has seen.
 */

import type { AnswerOf } from '@e-wallet/contract';
import {
  type InfiniteData,
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';
import { liveConnected } from '../../../shared/live/event-stream.ts';
import { useSessionStore } from '../../../shared/store/session-store.ts';

export type NotificationPage = AnswerOf<'notifications'>;
export type UserNotification = NotificationPage['results'][number];

export const notificationsQuery = (token: string | null) =>
  infiniteQueryOptions({
    queryKey: ['notifications'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ signal, pageParam }) =>
      callOk('notifications', { signal, query: { cursor: pageParam, limit: '20' } }),
    getNextPageParam: (page) => page.next ?? undefined,
    enabled: !!token,
    // The live stream brings new ones; only while it is down, look again now and then.
    refetchInterval: () => (liveConnected() ? false : 60_000),
  });

export function useNotifications() {
  const token = useSessionStore((state) => state.authToken);
  return useInfiniteQuery(notificationsQuery(token));
}

/** Marks notifications read; the list and its unread count update at once, then from the server. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => callOk('readNotifications', { body: { ids } }),
    onMutate: (ids) => {
      queryClient.setQueryData<InfiniteData<NotificationPage>>(['notifications'], (data) => {
        if (!data) return data;
        const read = new Set(ids);
        return {
          ...data,
          pages: data.pages.map((page, index) => ({
            ...page,
            unread: index === 0 ? Math.max(0, page.unread - ids.length) : page.unread,
            results: page.results.map((item) => (read.has(item.id) ? { ...item, is_read: true } : item)),
          })),
        };
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
}
