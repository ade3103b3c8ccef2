/**
 * The documents calls: a receipt's JSON (GET /v2/wallet/transaction/:id/receipt) through the typed
 * client, and the files (a receipt's PDF, a statement's CSV or PDF) fetched with the session's
 * token and saved through a temporary link, since a plain link cannot carry the token.
 */
import type { AnswerOf, QueryOf } from '@e-wallet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOk, pathOf } from '../../../shared/api/client.ts';
import { download } from '../../../shared/api/download.ts';

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
