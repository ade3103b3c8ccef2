/**
 * The documents calls: a receipt's JSON (GET /v2/wallet/transaction/:id/receipt) through the typed
 * client, and the files (a receipt's PDF, a statement's CSV or PDF) fetched with the session's
 * token and saved through a temporary link, since a plain link cannot carry the token.
 */
import type { AnswerOf, QueryOf } from '@e-wallet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, isErrorAnswer } from '../../../shared/api/api-error.ts';
import { callOk, pathOf } from '../../../shared/api/client.ts';
import i18n from '../../../shared/i18n/i18n.ts';
import { getAuthToken } from '../../../shared/store/session-store.ts';

export type DocumentReceipt = AnswerOf<'documentReceipt'>;

export const receiptQuery = (operationId: string) =>
  queryOptions({
    queryKey: ['documents', 'receipt', operationId],
    queryFn: ({ signal }) => callOk('documentReceipt', { signal, params: { id: operationId } }),
    staleTime: 30_000,
  });

export function useReceipt(operationId: string, enabled: boolean) {
  return useQuery({ ...receiptQuery(operationId), enabled });
}

/** Fetches a file of the API and hands it to the browser as a download named `fallbackName`. */
async function download(path: string, fallbackName: string): Promise<void> {
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

export function downloadReceiptPdf(operationId: string): Promise<void> {
  return download(
    pathOf('documentReceipt', { id: operationId }, { format: 'pdf' }),
    `receipt-${operationId}.pdf`,
  );
}

export type StatementRequest = NonNullable<QueryOf<'statement'>>;

export function downloadStatement(query: StatementRequest): Promise<void> {
  return download(
    pathOf('statement', undefined, query),
    `statement-${query.date_from}-${query.date_to}.${query.format}`,
  );
}
