/**
 * Documents: receipts, statements and the policy PDFs: their calls, as calls.ts assembles them into the one
 * table. Their shapes are in schemas/ (schemas.ts gathers them).
 */
import type { CallDef } from './calls.ts';
import { plainTextCall } from './plain-text.ts';
import * as s from './schemas.ts';

/** Every call refuses control characters in any text it takes (plain-text.ts). */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const documentsCalls = {
  documentReceipt: def({
    method: 'GET',
    path: '/v2/wallet/transaction/:id/receipt',
    access: 'token',
    tag: 'documents',
    summary:
      'The receipt of one operation (an id from the history or a money call); ?format=pdf answers it as a PDF',
    params: s.IdParams,
    query: s.DocumentReceiptQuery,
    answer: s.DocumentReceipt,
  }),
  statement: def({
    method: 'GET',
    path: '/v2/wallet/statement',
    access: 'token',
    tag: 'documents',
    summary:
      'A statement of one account over a period: opening balance, every operation, totals, closing balance (CSV or PDF, streamed)',
    query: s.StatementQuery,
    answer: s.StatementFile,
  }),
} as const satisfies Record<string, CallDef>;
