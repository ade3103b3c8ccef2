/**
 * The TanStack Query client of the signed-in area (provided by the home layout). Its cache holds
 * the user's data, so it is emptied on every sign-out, and asked again when the language changes.
 */
import { QueryClient } from '@tanstack/react-query';
import i18n from '../i18n/i18n.ts';
import { onSignOut } from '../session/sign-out.ts';
import { ApiError } from './api-error.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will answer the same again; network and 5xx failures get two more tries.
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});

onSignOut(() => queryClient.clear());
// The server writes descriptions, messages and receipts in the language asked for: a new language
// asks everything again, so nothing stays in the old one.
i18n.on('languageChanged', () => void queryClient.invalidateQueries());
