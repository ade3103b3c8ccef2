/** Documents: receipts, statements and the policy PDFs. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { AmountOut, CurrencyCodeSchema, DateTime, DayBound, Id } from './common.ts';

export const DocumentReceiptQuery = z.strictObject({ format: z.enum(['json', 'pdf']).optional() });
export const DocumentReceipt = z.object({
  id: Id,
  kind: z.enum(['topup', 'withdrawal', 'transfer', 'payment', 'refund', 'fee', 'exchange', 'savings']),
  direction: z.enum(['in', 'out']),
  status: z.enum(['pending', 'complete', 'failed']),
  amount: AmountOut.describe('signed: negative for money out'),
  currency_code: CurrencyCodeSchema,
  created_at: DateTime,
  description: z.string(),
  counterparty: z
    .string()
    .nullable()
    .describe('masked: a name with the initial of the last name, a masked card'),
  account: Id,
  fee: AmountOut,
  balance_after: AmountOut.describe('what the account could spend right after the operation'),
  verify_url: z.string().describe('the public page that confirms this receipt; its code is signed'),
});
export const StatementQuery = z.strictObject({
  account: Id,
  date_from: DayBound,
  date_to: DayBound,
  format: z.enum(['csv', 'pdf']),
});
/** A file: text/csv (UTF-8 with BOM) or application/pdf, streamed. */
export const StatementFile = z.string().describe('text/csv or application/pdf');
