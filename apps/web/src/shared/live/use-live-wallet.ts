/**
 * Applies the live stream to what the signed-in area shows (docs/decisions/live-wallet.md#the-live-wallet): a
 * balance is written into the cached wallet at once; an operation asks the history, statistics and the
 * account again; a notification goes to the top of the bell's list with the new unread count. After a
 * break the stream could not resume, everything is asked again. Every open tab does the same.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { type InfiniteData, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../store/session-store.ts';
import { type LiveEvent, onLiveEvent, startEventStream } from './event-stream.ts';

type NotificationPage = AnswerOf<'notifications'>;
type WalletAnswer = AnswerOf<'wallet'>;
interface BalanceEvent {
  account_id: string;
  currency_code: string;
  balance: string;
}
interface NotificationEvent {
  notification: NotificationPage['results'][number];
  unread: number;
}

export function applyLiveEvent(
  queryClient: QueryClient,
  event: LiveEvent,
  state: { started: boolean },
): void {
  switch (event.event) {
    case 'ready': {
      // A fresh stream after a gap it could not fill: what is on screen may be behind.
      const { resumed } = event.data as { resumed: boolean };
      if (state.started && !resumed) void queryClient.invalidateQueries();
      state.started = true;
      return;
    }
    case 'balance': {
      const balance = event.data as BalanceEvent;
      queryClient.setQueryData<WalletAnswer>(['wallet'], (wallet) => {
        if (!wallet) return wallet;
        const known = wallet.results.some((entry) => entry.accounts.some((a) => a.id === balance.account_id));
        if (!known) {
          void queryClient.invalidateQueries({ queryKey: ['wallet'] });
          return wallet;
        }
        return {
          ...wallet,
          results: wallet.results.map((entry) => ({
            ...entry,
            accounts: entry.accounts.map((account) =>
              account.id === balance.account_id ? { ...account, balance: balance.balance } : account,
            ),
          })),
        };
      });
      return;
    }
    case 'transaction': {
      // A paid request or a schedule's run is an operation too: their lists show its status.
      for (const key of [
        'transactions',
        'stat',
        'account',
        'auth-info',
        'money-check',
        'requests',
        'schedules',
      ])
        void queryClient.invalidateQueries({ queryKey: [key] });
      return;
    }
    case 'notification': {
      const { notification, unread } = event.data as NotificationEvent;
      // A request asked of the person, or declined by the one asked, changes the requests' lists.
      void queryClient.invalidateQueries({ queryKey: ['requests'] });
      // Held operations, approvals and the trusted person are told by notifications
      // (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
      for (const key of ['holds', 'approvals', 'trusted-person'])
        void queryClient.invalidateQueries({ queryKey: [key] });
      // Support's answer: the open conversation asks again (docs/decisions/support.md#support-chat).
      if (notification.kind === 'support')
        void queryClient.invalidateQueries({ queryKey: ['supportMessages'] });
      const cached = queryClient.getQueryData<InfiniteData<NotificationPage>>(['notifications']);
      if (!cached) {
        void queryClient.invalidateQueries({ queryKey: ['notifications'] });
        return;
      }
      queryClient.setQueryData<InfiniteData<NotificationPage>>(['notifications'], (data) => {
        if (!data) return data;
        const seen = data.pages.some((page) => page.results.some((item) => item.id === notification.id));
        return {
          ...data,
          pages: data.pages.map((page, index) =>
            index === 0
              ? { ...page, unread, results: seen ? page.results : [notification, ...page.results] }
              : page,
          ),
        };
      });
      return;
    }
  }
}

/** Holds the stream while the signed-in area is shown. */
export function useLiveWallet(): void {
  const queryClient = useQueryClient();
  const token = useSessionStore((state) => state.authToken);
  // The stream's texts are in the language it was opened with: a new language opens a new stream.
  const { i18n } = useTranslation();
  const language = i18n.language;
  // biome-ignore lint/correctness/useExhaustiveDependencies: language is the trigger: a new stream asks in it
  useEffect(() => {
    if (!token) return;
    const state = { started: false };
    const unsubscribe = onLiveEvent((event) => applyLiveEvent(queryClient, event, state));
    const stop = startEventStream();
    return () => {
      stop();
      unsubscribe();
    };
  }, [queryClient, token, language]);
}
