/**
 * The TanStack Query client of the signed-in area (provided by the home layout). Its cache holds
 * the user's data, so it is emptied on every sign-out, and asked again when the language changes.
 */
import { createQueryClient } from '@e-wallet/web-kit/query-client';
import i18n from '../i18n/i18n.ts';
import { onSignOut } from '../session/sign-out.ts';

export const queryClient = createQueryClient({ staleTime: 30_000 });

onSignOut(() => queryClient.clear());
// The server writes descriptions, messages and receipts in the language asked for: a new language
// asks everything again, so nothing stays in the old one.
i18n.on('languageChanged', () => void queryClient.invalidateQueries());
