/**
 * A file of the API (a receipt, a statement, one's own data) fetched with the session's token and
 * handed to the browser through a temporary link, since a plain link cannot carry the token.
 */
import i18n from '../i18n/i18n.ts';
import { getAuthToken } from '../store/session-store.ts';
import { ApiError, isErrorAnswer } from './api-error.ts';

/** Fetches a file of the API and hands it to the browser as a download named `fallbackName`. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const token = getAuthToken();
  const response = await fetch(path, {
    headers: {
      'Accept-Language': i18n.language || 'ru',
      ...(token ? { Authorization: `Token ${token}` } : {}),
    },
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const answer: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, isErrorAnswer(answer) ? answer : null);
  }
  const blob = await response.blob();
  const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = named ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
